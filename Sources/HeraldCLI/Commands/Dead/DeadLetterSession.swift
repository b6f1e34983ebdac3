import HeraldAMQP
import HeraldCore

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

    // MARK: purge

    /// `purge`: counts, and deletes only with `--yes`.
    private func purge(_ reader: DeadLetterReader) async throws -> Int32 {
        let count = try await reader.count()
        guard parsed.flags.contains("yes") else {
            console.err(
                "herald dead purge: would delete \(count) dead letter\(count == 1 ? "" : "s") from"
                    + " \(topology.deadLetterQueue); run it with --yes to delete them")
            return ExitStatus.failure
        }
        let deleted = try await reader.connection.purgeQueue(topology.deadLetterQueue)
        console.out("deleted \(deleted) dead letter\(deleted == 1 ? "" : "s") from \(topology.deadLetterQueue)")
        return ExitStatus.success
    }

    // MARK: helpers

    /// The letters `ids` name (each an ID or a unique prefix of one; every copy that shares it).
    func select(_ ids: [String], from letters: [DeadLetter]) throws -> [DeadLetter] {
        var chosen: [DeadLetter] = []
        var problems: [String] = []
        for id in ids {
            let matches = letters.filter { $0.id.hasPrefix(id.lowercased()) }
            let distinct = Set(matches.map(\.id))
            if id.isEmpty || matches.isEmpty {
                problems.append("no dead letter \(id.isEmpty ? "''" : id) among the \(letters.count) read")
            } else if distinct.count > 1 {
                problems.append(
                    "\(id) is the start of \(distinct.count) IDs (\(distinct.sorted().joined(separator: ", "))); give more of it"
                )
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
        console.err(
            "herald dead: \(often) dead letter\(often == 1 ? " was" : "s were") read \(DeadCommand.deliveryCountWarning)"
                + " or more times; a quorum queue's delivery limit (20 by default on RabbitMQ 4.0 to 4.2) drops"
                + " a message read that often: see docs/operations.md, \"Delivery limit\"")
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
