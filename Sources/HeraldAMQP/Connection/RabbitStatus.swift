import CRabbitMQ

/// A status as rabbitmq-c reports it: an `int` from the plain calls, an
/// `amqp_rpc_reply_t` from the synchronous ones.
enum RabbitStatus {
    case code(Int32)
    case reply(amqp_rpc_reply_t)

    /// The one place a rabbitmq-c status becomes a Swift error: nil on success.
    ///
    /// - Important: A server exception names the channel or connection that the
    ///   broker closed; the caller must still answer with `close-ok` and treat the
    ///   channel (or connection) as gone.
    static func error(_ status: RabbitStatus, operation: String) -> AMQPError? {
        switch status {
        case .code(let value):
            if value >= 0 { return nil }
            return libraryError(value, operation: operation)
        case .reply(let reply):
            switch reply.reply_type {
            case AMQP_RESPONSE_NORMAL:
                return nil
            case AMQP_RESPONSE_LIBRARY_EXCEPTION:
                return libraryError(reply.library_error, operation: operation)
            case AMQP_RESPONSE_SERVER_EXCEPTION:
                return serverError(reply.reply, operation: operation)
            default:
                return AMQPError(
                    .connectionLost, operation: operation, detail: "no reply (end of stream)", isRetryable: true)
            }
        }
    }

    /// Throws `error(_:operation:)` when there is one.
    /// `operation` is built only on failure (this runs for every publish and ack).
    static func check(_ status: RabbitStatus, operation: @autoclosure () -> String) throws(AMQPError) {
        if case .code(let value) = status, value >= 0 { return }
        if let failure = error(status, operation: operation()) { throw failure }
    }

    private static func libraryError(_ value: Int32, operation: String) -> AMQPError {
        let text = amqp_error_string2(value).map { String(cString: $0) } ?? "status \(value)"
        let permanent: Set<Int32> = [
            AMQP_STATUS_BAD_URL.rawValue, AMQP_STATUS_INVALID_PARAMETER.rawValue,
            AMQP_STATUS_TABLE_TOO_BIG.rawValue, AMQP_STATUS_UNSUPPORTED.rawValue,
            AMQP_STATUS_BROKER_UNSUPPORTED_SASL_METHOD.rawValue,
            AMQP_STATUS_SSL_HOSTNAME_VERIFY_FAILED.rawValue, AMQP_STATUS_SSL_PEER_VERIFY_FAILED.rawValue,
        ]
        return AMQPError(
            .library, operation: operation, detail: text, libraryStatus: value,
            isRetryable: !permanent.contains(value))
    }

    private static func serverError(_ method: amqp_method_t, operation: String) -> AMQPError {
        switch method.id {
        case AMQP_CHANNEL_CLOSE_METHOD:
            guard let close = method.decoded?.assumingMemoryBound(to: amqp_channel_close_t.self).pointee else { break }
            let code = Int(close.reply_code)
            return AMQPError(
                .channelClosed, operation: operation, detail: String(amqpBytes: close.reply_text),
                replyCode: code, isRetryable: isRetryable(replyCode: code))
        case AMQP_CONNECTION_CLOSE_METHOD:
            guard let close = method.decoded?.assumingMemoryBound(to: amqp_connection_close_t.self).pointee else {
                break
            }
            let code = Int(close.reply_code)
            return AMQPError(
                .connectionClosed, operation: operation, detail: String(amqpBytes: close.reply_text),
                replyCode: code, isRetryable: isRetryable(replyCode: code))
        default:
            break
        }
        return AMQPError(
            .connectionLost, operation: operation, detail: "unexpected method \(method.id)", isRetryable: true)
    }

    /// AMQP 0-9-1 reply codes a retry can fix: 320 connection-forced (the
    /// broker is stopping), 506 resource-error and 541 internal-error. The rest
    /// (403 access-refused, 404 not-found, 406 precondition-failed, 311
    /// content-too-large, 5xx protocol errors) recur until someone changes the
    /// configuration or the code.
    static func isRetryable(replyCode: Int) -> Bool {
        switch replyCode {
        case 320, 506, 541, 200: return true
        default: return false
        }
    }
}

extension String {
    /// Decodes rabbitmq-c bytes as UTF-8 (invalid sequences are repaired).
    init(amqpBytes bytes: amqp_bytes_t) {
        guard bytes.len > 0, let base = bytes.bytes else { self = ""; return }
        let buffer = UnsafeRawBufferPointer(start: base, count: bytes.len)
        self = String(decoding: buffer, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Copies rabbitmq-c bytes out of the connection's pool.
    init(amqpBytes bytes: amqp_bytes_t) {
        guard bytes.len > 0, let base = bytes.bytes else { self = []; return }
        self = Array(UnsafeRawBufferPointer(start: base, count: bytes.len))
    }
}
