import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldPipeline
import HeraldService

/// `herald publish`: puts event files on the events exchange, confirmed by the
/// broker — how an operator injects a test event (dead letters go back with
/// `herald dead replay`, which knows where each came from).
public struct PublishCommand: SimpleCommand {
    public init() {}

    public let name = "publish"
    public let summary = "Publish events from a file (or stdin) to the events exchange"
    public var help: String {
        """
        Usage: herald publish [--config FILE] --routing-key KEY [--exchange NAME] [--no-validate] FILE|-

        Publishes every event in FILE — one JSON object, or JSON lines — to the
        events exchange (persistent, mandatory, with publisher confirms). `-`
        reads standard input. First every event is checked as `herald run`
        would plan it (fields, each target, routes, the config's apps and their
        credentials): any problem refuses the whole input, nothing is
        published, and every problem is listed as FILE:LINE: message.
        Declares Herald's topology first (idempotent), so it works before
        `herald run` ever ran. Fails when an event cannot be routed to any
        queue. Prints the count.

        Options:
          --config FILE        the config file (default: config.yaml, or $HERALD_CONFIG)
          --routing-key KEY    the routing key, e.g. chat.message
          --exchange NAME      another exchange than amqp.events_exchange
          --timeout D          how long to wait for the broker to answer (default 10s)
          --no-validate        publish events Herald would refuse (to test how it refuses them)
          -h, --help           show this help
        """
    }

    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(
            options: ["config", "routing-key", "exchange", "timeout"], flags: ["no-validate"], files: ["config"],
            fileArguments: true)
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let file: String, routingKey: String, exchange: String?, configFile: String
        let timeout: Duration
        var validate = true
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            guard let key = parsed.options["routing-key"] else { throw UsageError("--routing-key is required") }
            guard parsed.positionals.count == 1, let input = parsed.positionals.first else {
                throw UsageError("give exactly one event file, or - for standard input")
            }
            timeout = try parsed.brokerTimeout()
            (file, routingKey, exchange) = (input, key, parsed.options["exchange"])
            validate = !parsed.flags.contains("no-validate")
            configFile = parsed.configFile(environment: environment)
        } catch {
            return usageFailure(error, console: console)
        }
        guard let config = loadConfig(configFile, environment: environment, console: console) else {
            return ExitStatus.failure
        }
        do {
            let count = try await publish(
                config: config, file: file, routingKey: routingKey, exchange: exchange, timeout: timeout,
                validate: validate)
            console.out(
                "published \(count) event\(count == 1 ? "" : "s") to \(exchange ?? config.configuration.amqp.eventsExchange) with routing key \(routingKey)"
            )
            return ExitStatus.success
        } catch {
            return BrokerTarget.report(error, prefix: "herald publish", console: console)
        }
    }

    private func publish(
        config: LoadedConfig, file: String, routingKey: String, exchange: String?, timeout: Duration,
        validate: Bool
    ) async throws -> Int {
        let batch = try EventBatch(reading: EventSource(argument: file))
        if validate {
            let planner = EventPlanner(config: config, ownUsers: config.amqpUsers)
            // Published with the connection's user as user-id (`publishEvents`), so checked as that user.
            try batch.check { planner.problems(in: $0, routingKey: routingKey, userID: config.amqpUsers.first) }
        }
        let target = BrokerTarget(
            configuration: try config.amqpConfiguration(connectionName: "herald publish"), topology: config.topology)
        // The timeout bounds only the wait for the broker; publishing a large file may take longer.
        return try await target.withConnection(timeout: timeout, topology: config.topology) { connection in
            try await publishEvents(batch, routingKey: routingKey, connection: connection, exchange: exchange)
        }
    }
}
