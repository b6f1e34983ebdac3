import Foundation
import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldService
import HeraldSystem

/// The broker an operator command talks to (`herald tail`, `herald dead`):
/// the connection, and the names of Herald's exchanges and queues on it
/// (with `topology.userID`, the user the connection publishes as).
struct BrokerTarget: Sendable {
    /// The options of every command that talks to the broker: where it is
    /// (`--config`, `BrokerURL`'s) and how long to wait for it (`--timeout`).
    static let syntax = ArgumentSyntax(
        options: ["config", "amqp", "amqp-file", "timeout"], files: ["config", "amqp-file"])

    var configuration: AMQPConfiguration
    var topology: TopologyOptions

    /// The broker from outside the config (`BrokerURL`: `--amqp`,
    /// `--amqp-file`, `$HERALD_AMQP_URL`) with the documented names
    /// (docs/amqp.md, "Topology"), or else the config's `amqp:` section
    /// (`--config`, `$HERALD_CONFIG`, `config.yaml`): its addresses (a broker
    /// from outside replaces them) and names. Prints why and returns nil when
    /// neither can be used.
    static func resolve(
        _ parsed: ParsedArguments, connectionName: String, environment: [String: String],
        console: any Console, command: some Command
    ) -> BrokerTarget? {
        let explicitConfig = parsed.options["config"] != nil || environment["HERALD_CONFIG"] != nil
        let outside: BrokerURL?
        do {
            outside = try BrokerURL(
                parsed, environment: environment, warn: { console.err("herald \(command.name): \($0)") })
        } catch {
            console.err("herald \(command.name): \(error)")
            return nil
        }
        var target: BrokerTarget
        if let outside, !explicitConfig {
            do {
                var configuration = try AMQPConfiguration(url: outside.url)
                configuration.connectionName = connectionName
                var topology = TopologyOptions()
                topology.userID = configuration.addresses.first?.url.user
                target = BrokerTarget(configuration: configuration, topology: topology)
            } catch {
                console.err(
                    "herald \(command.name): \(outside.source): '\(URLSecrets.redacted(outside.url))' is not a usable AMQP URL: \(error.detail)"
                )
                return nil
            }
            return target
        }
        guard
            let config = command.loadConfig(
                parsed.configFile(environment: environment), environment: environment,
                console: console)
        else { return nil }
        do {
            target = BrokerTarget(
                configuration: try config.amqpConfiguration(connectionName: connectionName),
                topology: config.topology)
        } catch {
            console.err("herald \(command.name): \(error)")
            return nil
        }
        if let outside {
            do {
                target.configuration.addresses = [AMQPAddress(try AMQPURL(outside.url))]
            } catch {
                console.err(
                    "herald \(command.name): \(outside.source): '\(URLSecrets.redacted(outside.url))' is not a usable AMQP URL: \(error.detail)"
                )
                return nil
            }
            target.topology.userID = target.configuration.addresses.first?.url.user
        }
        return target
    }

    /// Connects (waiting at most `timeout` for the broker to answer), runs
    /// `body`, and closes the connection, whatever `body` did; with
    /// `topology`, declares it on connecting. The connection's own log stays
    /// out of the operator's terminal but for critical lines: the command
    /// reports every failure itself. A broker that cannot be reached — none
    /// answered within `timeout`, or connecting failed before a connection
    /// ever opened — is a ``BrokerUnavailable``.
    func withConnection<T: Sendable>(
        timeout: Duration, topology: TopologyOptions? = nil,
        _ body: @escaping @Sendable (AMQPConnection) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        // An operator command does not wait out a broker that is down: it says so.
        configuration.reconnect.maxAttempts = configuration.reconnect.maxAttempts ?? 3
        // A broker that accepts the connection and never answers holds the handshake up to
        // `connectTimeout`, and the connection ends only after it: no longer than the command waits.
        configuration.connectTimeout = min(configuration.connectTimeout, timeout)
        let logger = Logger.commandLine(label: "herald", level: .critical)
        let connection = try AMQPConnection(configuration: configuration, topology: topology, logger: logger)
        let addresses = configuration.addresses.map(\.url)
        let unavailable = { @Sendable (reason: String) in BrokerUnavailable(addresses: addresses, reason: reason) }
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await connection.run()
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    if connection.isConnected || connection.connectionsOpened > 0 { return nil }
                    throw unavailable("no answer within \(timeout)")
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
                throw unavailable("no answer within \(timeout)")
            }
        } catch let error as AMQPError where connection.connectionsOpened == 0 {
            throw unavailable(error.detail.isEmpty ? error.code.description : error.detail)
        }
    }

    /// Reports a failure of a command that talks to the broker, one line on
    /// standard error (`prefix: what failed`); returns the exit status:
    /// ``ExitStatus/unavailable`` when the broker could not be reached, else
    /// ``ExitStatus/failure``.
    static func report(_ error: any Error, prefix: String, console: any Console) -> Int32 {
        console.err("\(prefix): \(ErrorText.forTerminal(error))")
        return error is BrokerUnavailable ? ExitStatus.unavailable : ExitStatus.failure
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

/// The broker URL an operator command is given outside the config, first
/// found of: `--amqp URL` (on the command line, so in the process list and
/// the shell's history), `--amqp-file FILE` (the URL on the file's first
/// line; a file readable by every user is warned about), `$HERALD_AMQP_URL`.
struct BrokerURL {
    static let environmentVariable = "HERALD_AMQP_URL"

    let url: String
    /// Where it came from, for messages: `--amqp`, `--amqp-file FILE`, `$HERALD_AMQP_URL`.
    let source: String

    /// Nil when none of the three is given.
    init?(_ parsed: ParsedArguments, environment: [String: String], warn: (String) -> Void) throws(UsageError) {
        if let url = parsed.options["amqp"] {
            if parsed.options["amqp-file"] != nil { throw UsageError("give --amqp or --amqp-file, not both") }
            (self.url, source) = (url, "--amqp")
        } else if let path = parsed.options["amqp-file"] {
            let file: BoundedFile
            do { file = try BoundedFile(path: path, limit: .key) } catch { throw UsageError("--amqp-file: \(error)") }
            guard let text = file.utf8Text,
                let line = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(in: .whitespaces),
                !line.isEmpty
            else { throw UsageError("--amqp-file: '\(path)' holds no URL on its first line") }
            if file.isReadableByOthers {
                warn(
                    "warning: --amqp-file '\(path)' is readable by every user (mode \(file.modeDescription)); chmod 600 it"
                )
            }
            (self.url, source) = (line, "--amqp-file \(path)")
        } else if let url = environment[Self.environmentVariable], !url.isEmpty {
            (self.url, source) = (url, "$\(Self.environmentVariable)")
        } else {
            return nil
        }
    }

    /// The help lines of `--amqp` and `--amqp-file`, their descriptions at
    /// `column` as in the command's other option lines.
    static func helpLines(column: Int) -> String {
        func line(_ option: String, _ text: String) -> String {
            let pad = String(repeating: " ", count: column)
            return option.count < column
                ? "  " + option + pad.dropFirst(option.count) + text : "  \(option)\n  \(pad)\(text)"
        }
        return [
            line("--amqp URL", "the broker, e.g. amqp://guest:guest@127.0.0.1:5672/%2f (in the process"),
            line("", "list: prefer --amqp-file or $HERALD_AMQP_URL for a real password)"),
            line("--amqp-file FILE", "the broker URL from the first line of FILE (chmod 600 it)"),
        ].joined(separator: "\n")
    }

    /// The paragraph of help that says where the broker comes from.
    static let helpParagraph = """
        The broker and the names come from the config's amqp: section (--config,
        $HERALD_CONFIG, config.yaml). A broker URL from --amqp URL, --amqp-file FILE
        or $HERALD_AMQP_URL (the first given) is used instead, with the documented
        names unless --config or $HERALD_CONFIG is given too (then it replaces the
        config's addresses only).
        """
}

/// The broker a command needs could not be reached: no address answered
/// within the command's `--timeout`, or connecting failed (refused, no such
/// host, refused credentials) before a connection ever opened. Every
/// command that needs the broker reports it the same way: one line naming
/// the broker's URLs with their passwords masked, exit status
/// ``ExitStatus/unavailable``.
struct BrokerUnavailable: Error, CustomStringConvertible {
    let addresses: [AMQPURL]
    /// Why: the connection's last failure, or that nothing answered in time.
    let reason: String

    var description: String {
        "cannot reach the broker at \(addresses.map(\.description).joined(separator: ", ")): \(reason)"
    }
}
