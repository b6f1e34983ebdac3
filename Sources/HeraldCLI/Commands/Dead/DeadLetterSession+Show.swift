import HeraldAMQP
import HeraldCore

/// `herald dead show ID`: one dead letter in full.
extension DeadLetterSession {
    func show(_ letters: [DeadLetter]) throws -> Int32 {
        let letter = try select(parsed.positionals, from: letters)[0]
        let delivery = letter.delivery
        let properties = delivery.properties
        // Everything but the id and times is the publisher's (or the broker's): printed through TerminalText.
        let field = TerminalText.field
        let replaysTo =
            switch DeadLetterReplay.origin(of: delivery, topology: topology) {
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
}
