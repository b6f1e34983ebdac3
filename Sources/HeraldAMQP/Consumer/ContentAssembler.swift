import CRabbitMQ

/// Collects a message's content header and body frames after the method that
/// announced it (`basic.deliver` or `basic.return`), one per channel, without
/// blocking the connection thread.
struct ContentAssembler {
    enum Announcement {
        case delivery(consumerTag: String, deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String)
        case returned(replyCode: Int, replyText: String, exchange: String, routingKey: String)
    }

    struct Content {
        var announcement: Announcement
        var properties: AMQPProperties
        var body: [UInt8]
    }

    /// The most body capacity reserved from a content header's announced size.
    static let maxReservation = 1 << 20

    private var announcement: Announcement?
    private var properties = AMQPProperties()
    private var expectedSize = 0
    private var body: [UInt8] = []
    private var awaitingHeader = false

    var isIdle: Bool { announcement == nil }

    mutating func begin(_ announcement: Announcement) {
        self.announcement = announcement
        properties = AMQPProperties()
        body = []
        expectedSize = 0
        awaitingHeader = true
    }

    /// Takes a content header frame; returns the content when the body is empty.
    mutating func header(_ frame: amqp_frame_t) -> Content? {
        guard announcement != nil, awaitingHeader else { return nil }
        awaitingHeader = false
        let header = frame.payload.properties
        if let decoded = header.decoded {
            properties = AMQPProperties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee)
        }
        // The announced size is the broker's word, not memory to commit up front:
        // reserve at most `maxReservation`; a larger body grows as its frames arrive.
        expectedSize = Int(clamping: header.body_size)
        body.reserveCapacity(min(expectedSize, Self.maxReservation))
        return expectedSize == 0 ? finish() : nil
    }

    /// Takes a body frame; returns the content once all of it arrived.
    mutating func bodyFragment(_ frame: amqp_frame_t) -> Content? {
        guard announcement != nil, !awaitingHeader else { return nil }
        let fragment = frame.payload.body_fragment
        if fragment.len > 0, let base = fragment.bytes {
            body.append(contentsOf: UnsafeRawBufferPointer(start: base, count: fragment.len))
        }
        return body.count >= expectedSize ? finish() : nil
    }

    mutating func reset() {
        announcement = nil
        body = []
    }

    private mutating func finish() -> Content? {
        guard let announcement else { return nil }
        let content = Content(announcement: announcement, properties: properties, body: body)
        reset()
        return content
    }
}
