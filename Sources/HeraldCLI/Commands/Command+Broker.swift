import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldService

/// The broker an operator command talks to (`herald tail`, `herald dead`):
/// the connection, and the names of Herald's exchanges and queues on it.
struct BrokerTarget: Sendable {
    var configuration: AMQPConfiguration
    var topology: TopologyOptions
    var logFormat: LogFormat

    /// `--amqp URL` with the documented names (docs/amqp.md, "Topology"), or
    /// else the config's `amqp:` section (`--config`, `$HERALD_CONFIG`,
    /// `config.yaml`): its addresses (a `--amqp` replaces them) and names.
    /// Prints why and returns nil when neither can be used.
    static func resolve(_ parsed: ParsedArguments, connectionName: String, environment: [String: String],
                        console: any Console, command: some Command) -> BrokerTarget? {
        let explicitConfig = parsed.options["config"] != nil || environment["HERALD_CONFIG"] != nil
        var target: BrokerTarget
        if let url = parsed.options["amqp"], !explicitConfig {
            do {
                var configuration = try AMQPConfiguration(url: url)
                configuration.connectionName = connectionName
                target = BrokerTarget(configuration: configuration, topology: TopologyOptions(), logFormat: .logfmt)
            } catch {
                console.err("herald \(command.name): --amqp: '\(URLSecrets.redacted(url))' is not a usable AMQP URL: \(error.detail)")
                return nil
            }
            return target
        }
        guard let config = command.loadConfig(parsed.configFile(environment: environment), environment: environment,
                                              console: console) else { return nil }
        do {
            target = BrokerTarget(configuration: try config.amqpConfiguration(connectionName: connectionName),
                                  topology: config.topology, logFormat: config.configuration.log.format)
        } catch {
            console.err("herald \(command.name): \(error)")
            return nil
        }
        if let url = parsed.options["amqp"] {
            do {
                target.configuration.addresses = [AMQPAddress(try AMQPURL(url))]
            } catch {
                console.err("herald \(command.name): --amqp: '\(URLSecrets.redacted(url))' is not a usable AMQP URL: \(error.detail)")
                return nil
            }
        }
        return target
    }

    /// Connects (waiting at most `timeout` for the broker to answer), runs
    /// `body`, and closes the connection, whatever `body` did. The
    /// connection's own log stays out of the operator's terminal but for
    /// critical lines: the command reports every failure itself.
    func withConnection<T: Sendable>(timeout: Duration,
                                     _ body: @escaping @Sendable (AMQPConnection) async throws -> T) async throws -> T {
        var configuration = configuration
        // An operator command does not wait out a broker that is down: it says so.
        configuration.reconnect.maxAttempts = configuration.reconnect.maxAttempts ?? 3
        let logger = Logger(label: "herald", level: .critical, format: logFormat)
        let connection = try AMQPConnection(configuration: configuration, logger: logger)
        let addresses = configuration.addresses.map(\.url)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await connection.run()
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                if connection.isConnected || connection.connectionsOpened > 0 { return nil }
                throw BrokerTimeout(addresses: addresses, timeout: timeout)
            }
            group.addTask {
                try await connection.waitUntilConnected()
                return try await body(connection)
            }
            defer { connection.shutdown() }
            while let result = try await group.next() {
                if let value = result {
                    connection.shutdown()
                    group.cancelAll()
                    return value
                }
            }
            throw BrokerTimeout(addresses: addresses, timeout: timeout)
        }
    }
}

extension ParsedArguments {
    /// `--timeout D` (how long to wait for the broker to answer), default 10 s.
    func brokerTimeout() throws(UsageError) -> Duration {
        guard let text = options["timeout"] else { return .seconds(10) }
        guard let value = ConfigDuration(parsing: text) else {
            throw UsageError("--timeout: expected a duration like 5s, found '\(text)'")
        }
        return value.duration
    }
}

/// No broker answered within a command's `--timeout`.
struct BrokerTimeout: Error, CustomStringConvertible {
    let addresses: [AMQPURL]
    let timeout: Duration
    var description: String {
        "no broker answered at \(addresses.map(\.description).joined(separator: ", ")) within \(timeout)"
    }
}
