// What AMQP 0-9-1 can carry, checked before a message reaches the encoder:
// a message the encoder would refuse must fail alone, as that message's
// failure, never as a broken connection.

extension AMQPMessage {
    /// The longest AMQP short string (exchange, routing key, `message-id` and
    /// the other string properties, header names): its length is one byte.
    public static let maxShortStringBytes = 255

    /// Why this message cannot be encoded for a connection whose frames are at
    /// most `frameMax` bytes, or nil when it can: a short string over 255
    /// bytes, or properties (headers included) too large for the one content
    /// header frame AMQP allows.
    public func encodingProblem(frameMax: Int) -> String? {
        let shortStrings: [(String, String?)] = [
            ("exchange", exchange), ("routing key", routingKey), ("content-type", properties.contentType),
            ("content-encoding", properties.contentEncoding), ("correlation-id", properties.correlationID),
            ("reply-to", properties.replyTo), ("expiration", properties.expiration),
            ("message-id", properties.messageID), ("type", properties.type), ("user-id", properties.userID),
            ("app-id", properties.appID),
        ]
        for case (let name, let value?) in shortStrings where value.utf8.count > Self.maxShortStringBytes {
            return
                "\(name) is \(value.utf8.count) bytes, over the AMQP short-string limit of \(Self.maxShortStringBytes)"
        }
        if let key = Self.overlongKey(in: properties.headers) {
            return "header name \(key.prefix(40))… is \(key.utf8.count) bytes, over the AMQP short-string limit of "
                + "\(Self.maxShortStringBytes)"
        }
        // The content header frame: class, weight, body size (12 bytes), then the properties.
        let room = frameMax - 8 - 12
        let size = properties.encodedSize
        guard size <= room else {
            return "properties (headers included) are \(size) bytes, over the \(room) bytes a content header frame "
                + "holds (frame_max \(frameMax))"
        }
        return nil
    }

    private static func overlongKey(in table: AMQPTable) -> String? {
        for (key, value) in table {
            if key.utf8.count > maxShortStringBytes { return key }
            if let nested = overlongKey(in: value) { return nested }
        }
        return nil
    }

    private static func overlongKey(in value: AMQPFieldValue) -> String? {
        switch value {
        case .table(let table): overlongKey(in: table)
        case .array(let values): values.lazy.compactMap(overlongKey(in:)).first
        default: nil
        }
    }
}

extension AMQPProperties {
    /// The encoded size of these properties (flags, then each present field),
    /// an upper bound where rabbitmq-c may pick a narrower integer.
    var encodedSize: Int {
        let strings = [
            contentType, contentEncoding, correlationID, replyTo, expiration, messageID, type, userID, appID,
        ]
        var size = 2 + strings.reduce(0) { $0 + ($1.map { 1 + $0.utf8.count } ?? 0) }
        if !headers.isEmpty { size += 4 + AMQPFieldValue.encodedSize(of: headers) }
        size += 1  // delivery mode
        if priority != nil { size += 1 }
        if timestamp != nil { size += 8 }
        return size
    }
}

extension AMQPFieldValue {
    /// A field table's encoded size, without its 4-byte length.
    static func encodedSize(of table: AMQPTable) -> Int {
        table.reduce(0) { $0 + 1 + $1.key.utf8.count + $1.value.encodedSize }
    }

    /// This value's encoded size: the type byte and the value.
    var encodedSize: Int {
        switch self {
        case .string(let string): 1 + 4 + string.utf8.count
        case .bytes(let bytes): 1 + 4 + bytes.count
        case .int, .double, .timestamp: 1 + 8
        case .bool: 1 + 1
        case .table(let table): 1 + 4 + Self.encodedSize(of: table)
        case .array(let values): 1 + 4 + values.reduce(0) { $0 + $1.encodedSize }
        case .void: 1
        }
    }
}
