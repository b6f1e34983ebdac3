import HeraldAMQP
import HeraldCore

/// `herald dead list`: one line (or JSON object) per dead letter.
extension DeadLetterSession {
    func list(_ letters: [DeadLetter], ready: Int) -> Int32 {
        if parsed.flags.contains("json") {
            for letter in letters { console.out(LogfmtValue.escapingControls(json(letter).jsonString)) }
        } else if letters.isEmpty {
            console.out("\(topology.deadLetterQueue) is empty")
        } else {
            var table = Table("ID", "EVENT", "ROUTING KEY", "DEAD-LETTERED", "REASON")
            for letter in letters {
                table.add(
                    letter.id, TerminalText.field(letter.eventID ?? "-"),
                    TerminalText.field(letter.delivery.routingKey),
                    letter.deadLetteredAt?.rfc3339(fractionDigits: 0) ?? "-",
                    TerminalText.field(Self.oneLine(letter.reason)))
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
}
