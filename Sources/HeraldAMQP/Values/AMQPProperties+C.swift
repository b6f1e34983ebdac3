import CRabbitMQ

extension AMQPProperties {
    /// Copies the properties out of a decoded content header.
    init(_ c: amqp_basic_properties_t) {
        let flags = c._flags
        func has(_ flag: Int32) -> Bool { flags & amqp_flags_t(flag) != 0 }
        func text(_ flag: Int32, _ bytes: amqp_bytes_t) -> String? { has(flag) ? String(amqpBytes: bytes) : nil }
        self.init(
            contentType: text(AMQP_BASIC_CONTENT_TYPE_FLAG, c.content_type),
            contentEncoding: text(AMQP_BASIC_CONTENT_ENCODING_FLAG, c.content_encoding),
            headers: has(AMQP_BASIC_HEADERS_FLAG) ? AMQPTableCodec.decode(c.headers) : [:],
            persistent: has(AMQP_BASIC_DELIVERY_MODE_FLAG) && c.delivery_mode == 2,
            priority: has(AMQP_BASIC_PRIORITY_FLAG) ? c.priority : nil,
            correlationID: text(AMQP_BASIC_CORRELATION_ID_FLAG, c.correlation_id),
            replyTo: text(AMQP_BASIC_REPLY_TO_FLAG, c.reply_to),
            expiration: text(AMQP_BASIC_EXPIRATION_FLAG, c.expiration),
            messageID: text(AMQP_BASIC_MESSAGE_ID_FLAG, c.message_id),
            timestamp: has(AMQP_BASIC_TIMESTAMP_FLAG) ? c.timestamp : nil,
            type: text(AMQP_BASIC_TYPE_FLAG, c.type),
            userID: text(AMQP_BASIC_USER_ID_FLAG, c.user_id),
            appID: text(AMQP_BASIC_APP_ID_FLAG, c.app_id))
    }

    /// Builds the C properties, allocating strings and tables from `pool`.
    func encoded(pool: UnsafeMutablePointer<amqp_pool_t>) -> amqp_basic_properties_t {
        var c = amqp_basic_properties_t()
        var flags: Int32 = AMQP_BASIC_DELIVERY_MODE_FLAG
        c.delivery_mode = persistent ? 2 : 1
        func set(_ value: String?, _ flag: Int32, _ field: WritableKeyPath<amqp_basic_properties_t, amqp_bytes_t>) {
            guard let value else { return }
            c[keyPath: field] = AMQPTableCodec.bytes(value, pool: pool)
            flags |= flag
        }
        set(contentType, AMQP_BASIC_CONTENT_TYPE_FLAG, \.content_type)
        set(contentEncoding, AMQP_BASIC_CONTENT_ENCODING_FLAG, \.content_encoding)
        set(correlationID, AMQP_BASIC_CORRELATION_ID_FLAG, \.correlation_id)
        set(replyTo, AMQP_BASIC_REPLY_TO_FLAG, \.reply_to)
        set(expiration, AMQP_BASIC_EXPIRATION_FLAG, \.expiration)
        set(messageID, AMQP_BASIC_MESSAGE_ID_FLAG, \.message_id)
        set(type, AMQP_BASIC_TYPE_FLAG, \.type)
        set(userID, AMQP_BASIC_USER_ID_FLAG, \.user_id)
        set(appID, AMQP_BASIC_APP_ID_FLAG, \.app_id)
        if !headers.isEmpty {
            c.headers = AMQPTableCodec.encode(headers, into: pool)
            flags |= AMQP_BASIC_HEADERS_FLAG
        }
        if let priority {
            c.priority = priority
            flags |= AMQP_BASIC_PRIORITY_FLAG
        }
        if let timestamp {
            c.timestamp = timestamp
            flags |= AMQP_BASIC_TIMESTAMP_FLAG
        }
        c._flags = amqp_flags_t(flags)
        return c
    }
}
