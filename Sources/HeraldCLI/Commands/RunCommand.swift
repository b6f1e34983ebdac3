import Dispatch
import Glibc
import HeraldConfig
import HeraldCore
import HeraldService
import Synchronization

/// `herald run`: the service. Consumes events, delivers them, publishes outcomes.
public struct RunCommand: SimpleCommand {
    public init() {}

    public let name = "run"
    public let summary = "Run the service: consume, route, deliver, publish outcomes"
    public var help: String {
        """
        Usage: herald run [--config FILE]

        Declares the AMQP topology, consumes the events queue and, for every
        event: validates it (invalid → a rejected outcome and the dead-letter
        queue), applies the routing rules, delivers each target through its
        app's APNs, FCM or Web Push credentials, publishes one outcome per
        target to the results exchange, schedules retries for transient
        failures, and acks the event only once the broker confirmed all of it. With a registry:
        section it also consumes the registry commands queue: each command is
        applied to the registry, its result published, and it is acked only
        after both (docs/registry.md).

        Starts even while the broker is down (it retries; /readyz says so). On
        SIGTERM or SIGINT it stops consuming, lets events in flight finish for
        at most shutdown_deadline, and exits 0; a second signal exits at once.

        Options:
          --config FILE   the config file (default: config.yaml, or $HERALD_CONFIG)
          -h, --help      show this help
        """
    }

    var argumentSyntax: ArgumentSyntax { ArgumentSyntax(options: ["config"], files: ["config"]) }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let file: String
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
            file = parsed.configFile(environment: environment)
        } catch {
            return usageFailure(error, console: console)
        }
        guard let config = loadConfig(file, environment: environment, console: console) else {
            return ExitStatus.failure
        }
        let log = config.configuration.log
        let logger = Logger(label: "herald", level: log.level, format: log.format)
        for warning in config.warnings { console.err(warning.description) }
        let service = DeliveryService(config: config, logger: logger)
        let signals = Self.installSignalHandlers(service: service, logger: logger)
        defer { signals.forEach { $0.cancel() } }
        do {
            try await service.run()
            return ExitStatus.success
        } catch {
            logger.critical("herald stopped on an error", ["error": .string("\(error)")])
            return ExitStatus.failure
        }
    }

    /// First SIGTERM/SIGINT: graceful shutdown. Second: exit at once (events in
    /// flight stay unacked and the broker redelivers them).
    static func installSignalHandlers(service: DeliveryService, logger: Logger) -> [any DispatchSourceSignal] {
        let received = SignalCount()
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler {
                if received.increment() == 1 {
                    logger.notice("signal received: draining", ["signal": .int(Int(number))])
                    service.shutdown()
                } else {
                    logger.warning("second signal: exiting now", ["signal": .int(Int(number))])
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }
}

/// Counts signals across both handlers.
final class SignalCount: Sendable {
    private let count = Atomic<Int>(0)
    func increment() -> Int { count.add(1, ordering: .relaxed).newValue }
}
