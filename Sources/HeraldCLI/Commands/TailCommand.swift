import Dispatch
import Glibc
import HeraldAMQP
import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldSystem

/// `herald tail`: the outcomes Herald publishes, live, for an operator
/// watching a deployment — without writing a consumer or leaving a durable
/// queue behind to collect outcomes nobody reads.
public struct TailCommand: SimpleCommand {
    public init() {}

    public let name = "tail"
    public let summary = "Print outcomes live as Herald publishes them to the results exchange"
    public var help: String {
        """
        Usage: herald tail [--status S,S...] [--provider P] [--app A] [--json] [--count N]
                           [--config FILE | --amqp URL | --amqp-file FILE]

        Subscribes to the results exchange (amqp.results_exchange, herald.results)
        on a queue of its own — named by the broker, exclusive to this command,
        deleted when it stops — and prints one line per outcome as it arrives:
        the event id, the provider, the target (device tokens and FIDs masked to
        their first 8 characters), the status and the reason. With --json each
        message is printed as received, one JSON object per line (unmasked).
        A control character in a field (ESC, BEL, C1) is printed escaped
        (\\u001B; such a field quoted), never as itself.
        Runs until Ctrl-C (SIGINT or SIGTERM: exits 0) or until --count
        messages were printed.

        The filters become the queue's bindings, <status>.<provider>.<app> with
        * for what is not filtered: --status invalid_token,failed --provider apns
        binds invalid_token.apns.* and failed.apns.*. Without --status it binds
        each delivery status, so registry results and anything else on the
        exchange stay out; name registry statuses in --status to see those.
          delivery statuses: \(Self.outcomeStatuses.joined(separator: ", "))
          registry statuses: \(Self.registryStatuses.joined(separator: ", "))

        \(BrokerURL.helpParagraph)

        Options:
          --status S,S...  only these statuses (comma-separated, or the option repeated)
          --provider P     only this provider (apns, fcm, webpush)
          --app A          only this app
          --json           the messages as received, one JSON object per line
          --debug          also the debug trace records of events sent with "debug": true
                           (debug.<provider>.<app>, debug.route.<app>; printed as received, docs/debug-trace.md)
          --count N        stop after N messages
          --config FILE    the config file (default: config.yaml, or $HERALD_CONFIG)
        \(BrokerURL.helpLines(column: 17))
          --timeout D      how long to wait for the broker to answer (default 10s)
          -h, --help       show this help
        """
    }

    var argumentSyntax: ArgumentSyntax {
        ArgumentSyntax(
            options: ["status", "provider", "app", "count"] + BrokerTarget.syntax.options,
            flags: ["json", "debug"], repeatable: ["status"], files: BrokerTarget.syntax.files)
    }

    /// Every status of a delivery outcome, as in its routing key.
    static let outcomeStatuses = Outcome.Status.allCases.map(\.rawValue)
    /// Every status of a registry command's result.
    static let registryStatuses = RegistryResult.Status.allCases.map(\.rawValue)

    /// What to show: the statuses (empty: every delivery status), provider and app.
    struct Filter: Equatable {
        var statuses: [String] = []
        var provider: String?
        var app: String?
        /// Also the per-event debug trace records (`debug.<provider>.<app>`, `debug.route.<app>`; docs/debug-trace.md).
        var debug = false

        /// The results exchange bindings that select what the filter shows.
        var bindings: [String] {
            outcomeBindings + (debug ? debugBindings : [])
        }

        /// The trace records of the filtered provider and app: the routing
        /// decision has no provider, so it is shown unless a provider is named.
        var debugBindings: [String] {
            ["debug.\(provider ?? "*").\(app ?? "*")"] + (provider == nil ? [] : ["debug.route.\(app ?? "*")"])
        }

        private var outcomeBindings: [String] {
            let statuses = self.statuses.isEmpty ? TailCommand.outcomeStatuses : self.statuses
            return statuses.map { "\($0).\(provider ?? "*").\(app ?? "*")" }
        }

        /// The filter `parsed` asks for; the error names the option and what it expects.
        init(_ parsed: ParsedArguments) throws(UsageError) {
            let known = TailCommand.outcomeStatuses + TailCommand.registryStatuses
            for value in parsed.repeated["status", default: []] {
                for status in value.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                    guard known.contains(status) else {
                        throw UsageError(
                            "--status: unknown status '\(status)'" + Suggestions.hint(for: status, among: known))
                    }
                    if !statuses.contains(status) { statuses.append(status) }
                }
            }
            if let name = parsed.options["provider"] {
                guard let provider = ProviderCatalog.registered.provider(named: name) else {
                    throw UsageError(
                        "--provider: unknown provider '\(name)'"
                            + Suggestions.hint(for: name, among: ProviderCatalog.registered.acceptedNames))
                }
                self.provider = provider.rawValue
            }
            if let app = parsed.options["app"] {
                guard !app.isEmpty, Outcome.routingWord(app) == app else {
                    throw UsageError(
                        "--app: '\(app)' is not an app name (letters, digits, - and _; no '.', '*' or '#')")
                }
                self.app = app
            }
            debug = parsed.flags.contains("debug")
        }

        init(statuses: [String] = [], provider: String? = nil, app: String? = nil) {
            self.statuses = statuses
            self.provider = provider
            self.app = app
        }
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let parsed: ParsedArguments
        let filter: Filter
        var count: Int?
        let timeout: Duration
        do {
            parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
            filter = try Filter(parsed)
            if let text = parsed.options["count"] {
                guard let value = Int(text), value > 0 else {
                    throw UsageError("--count: expected a positive integer, found '\(text)'")
                }
                count = value
            }
            timeout = try parsed.brokerTimeout()
        } catch {
            return usageFailure(error, console: console)
        }
        guard
            var target = BrokerTarget.resolve(
                parsed, connectionName: "herald tail", environment: environment,
                console: console, command: self)
        else { return ExitStatus.failure }
        // Which exchange, in the broker's list of connections (the management UI, rabbitmqctl list_connections).
        target.configuration.connectionName = "herald tail \(target.topology.resultsExchange)"
        let json = parsed.flags.contains("json")
        let stopper = Stopper()
        let signals = stopper.stopOnSignals()
        defer { stopper.restoreSignals(signals) }
        let exchange = target.topology.resultsExchange
        let bindings = filter.bindings
        let limit = count
        do {
            _ = try await target.withConnection(timeout: timeout) { connection in
                stopper.attach(connection)
                try await connection.declareExchange(exchange, type: "topic")
                let queue = try await connection.declareServerNamedQueue()
                for key in bindings { try await connection.bindQueue(queue, exchange: exchange, routingKey: key) }
                let consumer = try await connection.consume(queue: queue, prefetch: 256)
                console.err("herald tail: \(exchange) with \(bindings.joined(separator: ", ")); Ctrl-C to stop")
                if !json { console.out(ResultLine.header.text) }
                var printed = 0
                do {
                    for try await delivery in consumer.deliveries {
                        // Trace records are printed as received: they are documents, not one-line results.
                        let asReceived = json || delivery.routingKey.hasPrefix("debug.")
                        console.out(
                            asReceived
                                ? TerminalText.asReceived(delivery.body)
                                : ResultLine(body: delivery.body, routingKey: delivery.routingKey).text)
                        connection.settleWithoutWaiting(delivery, .ack(multiple: false))
                        printed += 1
                        if let limit, printed >= limit { break }
                    }
                } catch {
                    throw TailInterrupted(cause: error)
                }
                return printed
            }
            return ExitStatus.success
        } catch {
            if stopper.stopped { return ExitStatus.success }
            return BrokerTarget.report(error, prefix: "herald tail", console: console)
        }
    }
}

/// The subscription ended under `herald tail`: its queue lived only as long
/// as its connection, so a reconnect cannot resume it without a gap.
struct TailInterrupted: Error, CustomStringConvertible {
    let cause: any Error
    var description: String {
        "the subscription ended (\(cause)): the connection to the broker was lost and the private queue with it,"
            + " so outcomes published meanwhile were missed; run herald tail again"
    }
}

/// Ends a long-running command on SIGINT or SIGTERM by closing its broker
/// connection, which ends its consumer's stream: the command then returns
/// as if it had finished, and exits 0.
final class Stopper: Sendable {
    private let state = Locked<(connection: AMQPConnection?, stopped: Bool)>((nil, false))

    var stopped: Bool { state.withLock { $0.stopped } }

    /// The connection to close on a signal (at once if one came already).
    func attach(_ connection: AMQPConnection) {
        let stopNow = state.withLock { state -> Bool in
            state.connection = connection
            return state.stopped
        }
        if stopNow { connection.shutdown() }
    }

    func stop() {
        let connection = state.withLock { state -> AMQPConnection? in
            state.stopped = true
            return state.connection
        }
        connection?.shutdown()
    }

    /// Routes SIGINT and SIGTERM to `stop()` until `restoreSignals`.
    func stopOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { [self] in stop() }
            source.resume()
            return source
        }
    }

    /// Gives SIGINT and SIGTERM their default action back.
    func restoreSignals(_ sources: [any DispatchSourceSignal]) {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
