import HeraldAMQP
import HeraldCore

/// One message of the dead-letter queue as `herald dead` shows it: the
/// delivery, an id that names it, and what its headers and body say about it.
///
/// The id is a hash of the routing key, body and reason, not a position: the
/// queue's order changes as messages are returned to it and as Herald parks
/// more, but the id a `list` printed still names the same message for `show`
/// and `replay`. Copies that are identical in all three share their id.
struct DeadLetter: Sendable {
    let delivery: AMQPDelivery
    let id: String

    init(_ delivery: AMQPDelivery) {
        self.delivery = delivery
        self.id = Self.id(of: delivery)
    }

    /// 10 hexadecimal digits of an FNV-1a hash: unique enough among the
    /// thousands a list shows, short enough to type.
    static func id(of delivery: AMQPDelivery) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x0000_0100_0000_01b3
        }
        mix(delivery.routingKey.utf8)
        mix(delivery.body)
        mix((delivery.headers[HeraldHeader.error]?.stringValue ?? "").utf8)
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(10))
    }

    /// The event's (or registry command's) `id` from the body, else the message id.
    var eventID: String? {
        if case .object(let object)? = try? JSONValue.parse(delivery.body), let id = object["id"]?.stringValue {
            return id
        }
        return delivery.messageID
    }

    /// Why it is here: Herald's `x-herald-error`, else the broker's reason and the queue it left.
    var reason: String {
        if let error = delivery.headers[HeraldHeader.error]?.stringValue { return error }
        if let death = newestDeath, let reason = death["reason"]?.stringValue {
            return death["queue"]?.stringValue.map { "\(reason) by \($0)" } ?? reason
        }
        return delivery.headers["x-first-death-reason"]?.stringValue ?? "-"
    }

    /// When it was dead-lettered, if the headers say.
    var deadLetteredAt: Timestamp? {
        if let milliseconds = delivery.headers[HeraldHeader.deadLetteredAt]?.intValue {
            return Timestamp(millisecondsSinceEpoch: milliseconds)
        }
        if case .timestamp(let seconds)? = newestDeath?["time"] { return Timestamp(seconds: Int64(clamping: seconds)) }
        return nil
    }

    /// How often the queue has delivered it before (a quorum queue's `x-delivery-count`).
    var deliveryCount: Int {
        delivery.headers[DeadLetterReplay.deliveryCountHeader]?.intValue.map { Int(clamping: $0) } ?? 0
    }

    /// The newest entry of the broker's `x-death` history.
    private var newestDeath: AMQPTable? {
        guard case .array(let deaths)? = delivery.headers["x-death"], case .table(let newest)? = deaths.first else {
            return nil
        }
        return newest
    }
}
