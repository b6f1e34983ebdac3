import HeraldAMQP
import HeraldCore

/// `herald dead`: the dead-letter queue from a shell — what is there and
/// why, one message in full, putting messages back where they came from,
/// emptying it — without a hand-written consumer, and without ever losing a
/// message: reading returns everything to the queue, and a replayed message
/// leaves the queue only once the broker confirmed its copy.
public struct DeadCommand: Command {
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

        var flags: Set<String> {
            switch self {
            case .list: ["json"]
            case .show: []
            case .replay: ["all"]
            case .purge: ["yes"]
            }
        }

        var options: Set<String> {
            let common: Set<String> = ["config", "amqp", "amqp-file", "timeout"]
            switch self {
            case .purge: return common
            case .list, .show: return common.union(["limit"])
            case .replay: return common.union(["limit", "max-replays"])
            }
        }
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let subcommand: Subcommand
        let parsed: ParsedArguments
        var limit = Self.defaultLimit
        var maxReplays = DeadLetterReplay.defaultMaxReplays
        let timeout: Duration
        do {
            guard let first = arguments.first else { throw UsageError("give a subcommand: list, show, replay or purge") }
            if first == "-h" || first == "--help" { console.out(help); return ExitStatus.success }
            guard let named = Subcommand(rawValue: first) else {
                throw UsageError("unknown subcommand '\(first)'" + Suggestions.hint(for: first, among: Subcommand.allCases.map(\.rawValue)))
            }
            subcommand = named
            parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), options: subcommand.options, flags: subcommand.flags)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            if let text = parsed.options["limit"] {
                guard let value = Int(text), (1...DeadLetterReader.maxLimit).contains(value) else {
                    throw UsageError("--limit: expected an integer from 1 to \(DeadLetterReader.maxLimit), found '\(text)'")
                }
                limit = value
            }
            if let text = parsed.options["max-replays"] {
                guard let value = Int(text), (1...Self.maxReplaysLimit).contains(value) else {
                    throw UsageError("--max-replays: expected an integer from 1 to \(Self.maxReplaysLimit), found '\(text)'")
                }
                maxReplays = value
            }
            timeout = try parsed.brokerTimeout()
            switch subcommand {
            case .list, .purge:
                if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
            case .show:
                guard parsed.positionals.count == 1 else { throw UsageError("give exactly one ID (as herald dead list prints it)") }
            case .replay:
                if parsed.flags.contains("all") != parsed.positionals.isEmpty {
                    throw UsageError(parsed.positionals.isEmpty ? "give the IDs to replay, or --all" : "give IDs or --all, not both")
                }
            }
        } catch {
            console.err("herald dead: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        let prefix = "herald dead \(subcommand.rawValue)"
        guard var target = BrokerTarget.resolve(parsed, connectionName: prefix, environment: environment, console: console,
                                                command: self) else { return ExitStatus.failure }
        // Which queue, in the broker's list of connections (the management UI, rabbitmqctl list_connections).
        target.configuration.connectionName = "\(prefix) \(target.topology.deadLetterQueue)"
        let session = DeadLetterSession(topology: target.topology, parsed: parsed, limit: limit, maxReplays: maxReplays,
                                        console: console)
        do {
            let status = try await target.withConnection(timeout: timeout) { connection in
                try await session.run(subcommand, on: connection)
            }
            return status
        } catch {
            console.err("\(prefix): \(error)")
            return ExitStatus.failure
        }
    }
}

/// One `herald dead` subcommand at work on a connection.
struct DeadLetterSession: Sendable {
    let topology: TopologyOptions
    let parsed: ParsedArguments
    let limit: Int
    let maxReplays: Int
    let console: any Console

    func run(_ subcommand: DeadCommand.Subcommand, on connection: AMQPConnection) async throws -> Int32 {
        let reader = DeadLetterReader(connection: connection, queue: topology.deadLetterQueue)
        switch subcommand {
        case .purge: return try await purge(reader)
        case .list, .show, .replay: break
        }
        let (letters, ready) = try await reader.read(limit: limit)
        var acked: Set<DeliveryTag> = []
        let status: Int32
        do {
            switch subcommand {
            case .list: status = list(letters, ready: ready)
            case .show: status = try show(letters)
            case .replay: status = try await replay(letters, ready: ready, on: connection, acked: &acked)
            case .purge: status = ExitStatus.failure
            }
        } catch {
            try? await reader.giveBack(letters, except: acked)
            throw error
        }
        try await reader.giveBack(letters, except: acked)
        warnAboutDeliveryCounts(letters.filter { !acked.contains($0.delivery.tag) })
        return status
    }

    // MARK: list

    private func list(_ letters: [DeadLetter], ready: Int) -> Int32 {
        if parsed.flags.contains("json") {
            for letter in letters { console.out(LogfmtValue.escapingControls(json(letter).jsonString)) }
        } else if letters.isEmpty {
            console.out("\(topology.deadLetterQueue) is empty")
        } else {
            var table = Table("ID", "EVENT", "ROUTING KEY", "DEAD-LETTERED", "REASON")
            for letter in letters {
                table.add(letter.id, TerminalText.field(letter.eventID ?? "-"), TerminalText.field(letter.delivery.routingKey),
                          letter.deadLetteredAt?.rfc3339(fractionDigits: 0) ?? "-", TerminalText.field(Self.oneLine(letter.reason)))
            }
            console.out(table.text)
        }
        if ready > letters.count {
            console.err("herald dead list: showing \(letters.count) of \(ready) dead letters (--limit \(limit))")
        }
        return ExitStatus.success
    }

    private func json(_ letter: DeadLetter) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(letter.id)
        if let eventID = letter.eventID { object["event_id"] = .string(eventID) }
        object["routing_key"] = .string(letter.delivery.routingKey)
        switch DeadLetterReplay.origin(of: letter.delivery, topology: topology) {
        case .success(let origin): object["replay_exchange"] = .string(origin.exchange)
        case .failure(let refusal): object["replay_refused"] = .string(refusal.description)
        }
        object["replays"] = .number(JSONNumber(DeadLetterReplay.replays(of: letter.delivery)))
        object["reason"] = .string(letter.reason)
        if let at = letter.deadLetteredAt { object["dead_lettered_at"] = .string(at.rfc3339(fractionDigits: 3)) }
        object["delivery_count"] = .number(JSONNumber(letter.deliveryCount))
        return .object(object)
    }

    // MARK: show

    private func show(_ letters: [DeadLetter]) throws -> Int32 {
        let letter = try select(parsed.positionals, from: letters)[0]
        let delivery = letter.delivery
        let properties = delivery.properties
        // Everything but the id and times is the publisher's (or the broker's): printed through TerminalText.
        let field = TerminalText.field
        let replaysTo = switch DeadLetterReplay.origin(of: delivery, topology: topology) {
        case .success(let origin): "exchange \(field(origin.exchange)), routing key \(field(origin.routingKey))"
        case .failure(let refusal): "nowhere: \(field(String(describing: refusal)))"
        }
        var lines = [
            "id:             \(letter.id)",
            "event:          \(field(letter.eventID ?? "-"))",
            "routing key:    \(field(delivery.routingKey))",
            "replays to:     \(replaysTo)",
            "replayed:       \(DeadLetterReplay.replays(of: delivery)) times before",
            "dead-lettered:  \(letter.deadLetteredAt?.rfc3339(fractionDigits: 3) ?? "-")",
            "reason:         \(field(letter.reason))",
        ]
        var described: [String] = []
        if let messageID = properties.messageID { described.append("message-id \(field(messageID))") }
        if let contentType = properties.contentType { described.append("content-type \(field(contentType))") }
        if let timestamp = properties.timestamp { described.append("timestamp \(timestamp)") }
        described.append(properties.persistent ? "persistent" : "transient")
        lines.append("properties:     " + described.joined(separator: ", "))
        lines.append("headers:")
        for name in delivery.headers.keys.sorted() {
            lines.append("  \(field(name)): \(field("\(delivery.headers[name] ?? .void)"))")
        }
        lines.append("body (\(delivery.body.count) bytes):")
        lines.append(TerminalText.body(delivery.body))
        console.out(lines.joined(separator: "\n"))
        return ExitStatus.success
    }

    // MARK: replay

    private func replay(_ letters: [DeadLetter], ready: Int, on connection: AMQPConnection,
                        acked: inout Set<DeliveryTag>) async throws -> Int32 {
        let chosen = parsed.flags.contains("all") ? letters : try select(parsed.positionals, from: letters)
        var replayed = 0
        var failed = 0
        var refused = 0
        for letter in chosen {
            let message: AMQPMessage
            switch DeadLetterReplay.message(for: letter.delivery, topology: topology, maxReplays: maxReplays) {
            case .success(let copy): message = copy
            case .failure(let refusal):
                refused += 1
                let hint = DeadLetterReplay.replays(of: letter.delivery) >= maxReplays
                    ? "; once its cause is fixed, --max-replays \(maxReplays + 1) allows one more" : ""
                let why = TerminalText.field(refusal.description)
                console.err("herald dead replay: \(letter.id) refused, it stays in \(topology.deadLetterQueue): \(why)\(hint)")
                continue
            }
            do {
                try await connection.publish(message, mandatory: true)
            } catch let error as AMQPError where !error.isRetryable {
                // This copy will never be accepted (no such exchange, no queue bound): the letter stays.
                failed += 1
                console.err("herald dead replay: \(letter.id) stays in \(topology.deadLetterQueue): \(error)")
                continue
            } catch {
                throw DeadLetterFailure("stopped at \(letter.id) after replaying \(replayed): \(error); it and the others"
                                        + " not replayed stay in \(topology.deadLetterQueue)")
            }
            do {
                try await connection.ack(letter.delivery)
            } catch {
                throw DeadLetterFailure("stopped at \(letter.id) after replaying \(replayed): its copy was published to"
                                        + " \(message.exchange) but it could not be removed (\(error)); it stays in"
                                        + " \(topology.deadLetterQueue), so a later replay sends it again")
            }
            acked.insert(letter.delivery.tag)
            replayed += 1
            console.out("replayed \(letter.id) to \(message.exchange) with routing key \(message.routingKey)")
        }
        console.out("replayed \(replayed) dead letter\(replayed == 1 ? "" : "s")"
                    + (refused > 0 ? "; \(refused) refused and stay\(refused == 1 ? "s" : "") in \(topology.deadLetterQueue)" : "")
                    + (failed > 0 ? "; \(failed) could not be and stay in \(topology.deadLetterQueue)" : ""))
        if parsed.flags.contains("all"), ready > letters.count {
            console.err("herald dead replay: read \(letters.count) of \(ready) dead letters (--limit \(limit)); run it again for the rest")
        }
        return failed + refused > 0 ? ExitStatus.failure : ExitStatus.success
    }

    // MARK: purge

    private func purge(_ reader: DeadLetterReader) async throws -> Int32 {
        let count = try await reader.count()
        guard parsed.flags.contains("yes") else {
            console.err("herald dead purge: would delete \(count) dead letter\(count == 1 ? "" : "s") from"
                        + " \(topology.deadLetterQueue); run it with --yes to delete them")
            return ExitStatus.failure
        }
        let deleted = try await reader.connection.purgeQueue(topology.deadLetterQueue)
        console.out("deleted \(deleted) dead letter\(deleted == 1 ? "" : "s") from \(topology.deadLetterQueue)")
        return ExitStatus.success
    }

    // MARK: helpers

    /// The letters `ids` name (each an ID or a unique prefix of one; every copy that shares it).
    private func select(_ ids: [String], from letters: [DeadLetter]) throws -> [DeadLetter] {
        var chosen: [DeadLetter] = []
        var problems: [String] = []
        for id in ids {
            let matches = letters.filter { $0.id.hasPrefix(id.lowercased()) }
            let distinct = Set(matches.map(\.id))
            if id.isEmpty || matches.isEmpty {
                problems.append("no dead letter \(id.isEmpty ? "''" : id) among the \(letters.count) read")
            } else if distinct.count > 1 {
                problems.append("\(id) is the start of \(distinct.count) IDs (\(distinct.sorted().joined(separator: ", "))); give more of it")
            } else {
                chosen += matches.filter { match in !chosen.contains { $0.delivery.tag == match.delivery.tag } }
            }
        }
        guard problems.isEmpty else { throw DeadLetterFailure(problems.joined(separator: "; ")) }
        return chosen
    }

    private func warnAboutDeliveryCounts(_ letters: [DeadLetter]) {
        let often = letters.filter { $0.deliveryCount >= DeadCommand.deliveryCountWarning }.count
        guard often > 0 else { return }
        console.err("herald dead: \(often) dead letter\(often == 1 ? " was" : "s were") read \(DeadCommand.deliveryCountWarning)"
                    + " or more times; a quorum queue's delivery limit (20 by default on RabbitMQ 4.0 to 4.2) drops"
                    + " a message read that often: see docs/operations.md, \"Delivery limit\"")
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
