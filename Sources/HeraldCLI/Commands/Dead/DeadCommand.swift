import HeraldAMQP
import HeraldCore

/// `herald dead`: the dead-letter queue from a shell — what is there and
/// why, one message in full, putting messages back where they came from,
/// emptying it — without a hand-written consumer, and without ever losing a
/// message: reading returns everything to the queue, and a replayed message
/// leaves the queue only once the broker confirmed its copy.
public struct DeadCommand: SubcommandGroup {
    public init() {}

    public let name = "dead"
    public let summary = "Inspect, replay and purge dead-lettered events (herald.dead)"
    public var help: String {
        """
        Usage: herald dead <subcommand> [--config FILE | --amqp URL | --amqp-file FILE] [options]

        The dead-letter queue (amqp.dead_letter_queue, herald.dead) holds the
        events and registry commands Herald refused (x-herald-error says why),
        the targets whose retries ran out, and what the broker dead-lettered
        (x-death says why: over the delivery limit, rejected). docs/operations.md
        describes what lands there and how to deal with it.

        Subcommands:
          list [--limit N] [--json]   one line per dead letter: its ID, the event id, the
                                      routing key, when and why it was dead-lettered
          show ID                     one dead letter's properties, headers and body (a control
                                      character escaped as \\u001B, a body that is not UTF-8
                                      in hexadecimal)
          replay (--all | ID...)      publish each again, with the routing key it carries, to
                                      the exchange of the queue it left: the events queue's to
                                      the events exchange, the registry queue's to the registry
                                      exchange, as the broker's x-death says (Herald's own dead
                                      letters: its x-herald-exchange), with publisher confirms;
                                      each leaves herald.dead only once its copy is confirmed.
                                      Any other dead letter, and one replayed --max-replays
                                      times already, is refused and stays
          purge [--yes]               delete every dead letter; without --yes, only say how many

        An ID is what list prints (a hash of the message, so it stays the
        same while the queue changes; any unique prefix will do). Reading
        takes nothing away: list, show and replay read up to --limit messages
        (default \(Self.defaultLimit), at most \(DeadLetterReader.maxLimit)) and
        give back all they do not replay. A dead letter of retries that ran out
        holds only the targets that failed, so replaying it sends to those alone.
        A replayed copy drops the broker's death headers and Herald's
        x-herald-error, starts its attempts afresh, counts its replays in
        x-herald-replays, and is not a duplicate for duplicate_window.

        \(BrokerURL.helpParagraph)

        Options:
          --config FILE   the config file (default: config.yaml, or $HERALD_CONFIG)
        \(BrokerURL.helpLines(column: 16))
          --limit N       read at most N dead letters (list, show, replay)
          --json          list: one JSON object per dead letter
          --all           replay: every dead letter read
          --max-replays N replay: refuse a dead letter replayed N times already (default \(DeadLetterReplay.defaultMaxReplays))
          --yes           purge: really delete
          --timeout D     how long to wait for the broker to answer (default 10s)
          -h, --help      show this help
        """
    }

    static let defaultLimit = 1000
    /// The most `--max-replays` allows.
    static let maxReplaysLimit = 1000
    /// A read that found a dead letter delivered this often before warns (docs/operations.md, "Delivery limit").
    static let deliveryCountWarning = 10

    enum Subcommand: String, CaseIterable {
        case list, show, replay, purge
    }

    let missingSubcommand = "give a subcommand: list, show, replay or purge"

    /// A command line read: the parsed arguments and the values checked.
    struct Line {
        let parsed: ParsedArguments
        let limit: Int
        let maxReplays: Int
        let timeout: Duration
    }

    func syntax(for subcommand: Subcommand) -> ArgumentSyntax {
        let broker = BrokerTarget.syntax
        return switch subcommand {
        case .list: ArgumentSyntax(options: broker.options + ["limit"], flags: ["json"], files: broker.files)
        case .show: ArgumentSyntax(options: broker.options + ["limit"], files: broker.files)
        case .replay:
            ArgumentSyntax(options: broker.options + ["limit", "max-replays"], flags: ["all"], files: broker.files)
        case .purge: ArgumentSyntax(options: broker.options, flags: ["yes"], files: broker.files)
        }
    }

    func read(_ parsed: ParsedArguments, for subcommand: Subcommand) throws(UsageError) -> Line {
        let limit = try parsed.integer("limit", in: 1...DeadLetterReader.maxLimit) ?? Self.defaultLimit
        let maxReplays =
            try parsed.integer("max-replays", in: 1...Self.maxReplaysLimit) ?? DeadLetterReplay.defaultMaxReplays
        let timeout = try parsed.brokerTimeout()
        switch subcommand {
        case .list, .purge:
            try parsed.refusePositionals()
        case .show:
            guard parsed.positionals.count == 1 else {
                throw UsageError("give exactly one ID (as herald dead list prints it)")
            }
        case .replay:
            if parsed.flags.contains("all") != parsed.positionals.isEmpty {
                throw UsageError(
                    parsed.positionals.isEmpty ? "give the IDs to replay, or --all" : "give IDs or --all, not both")
            }
        }
        return Line(parsed: parsed, limit: limit, maxReplays: maxReplays, timeout: timeout)
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        await runSubcommand(arguments, environment: environment, console: console)
    }

    func run(_ subcommand: Subcommand, _ line: Line, environment: [String: String], console: any Console) async
        -> Int32
    {
        let prefix = prefix(subcommand)
        guard
            var target = BrokerTarget.resolve(
                line.parsed, connectionName: prefix, environment: environment, console: console,
                command: self)
        else { return ExitStatus.failure }
        // Which queue, in the broker's list of connections (the management UI, rabbitmqctl list_connections).
        target.configuration.connectionName = "\(prefix) \(target.topology.deadLetterQueue)"
        let session = DeadLetterSession(
            topology: target.topology, parsed: line.parsed, limit: line.limit, maxReplays: line.maxReplays,
            console: console)
        do {
            let status = try await target.withConnection(timeout: line.timeout) { connection in
                try await session.run(subcommand, on: connection)
            }
            return status
        } catch {
            return BrokerTarget.report(error, prefix: prefix, console: console)
        }
    }
}
