import CRabbitMQ

extension RabbitConnection {
    /// The AMQP 0-9-1 connection handshake, done by hand because `amqp_login` is
    /// variadic (Swift cannot call it): protocol header, `start`/`start-ok` with
    /// SASL PLAIN, `tune`/`tune-ok`, `open`/`open-ok`, all within `connectTimeout`.
    func handshake(_ configuration: AMQPConfiguration, url: AMQPURL) throws(AMQPError) {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        try RabbitStatus.check(.code(amqp_send_header(state)), operation: "send protocol header")
        _ = try waitMethod(AMQP_CONNECTION_START_METHOD, deadline: deadline, operation: "connection.start")
        try sendStartOk(configuration, url: url)
        let tune = try waitMethod(AMQP_CONNECTION_TUNE_METHOD, deadline: deadline, operation: "connection.tune")
        guard let server = tune.decoded?.assumingMemoryBound(to: amqp_connection_tune_t.self).pointee else {
            throw AMQPError(.library, operation: "connection.tune", detail: "undecodable", isRetryable: true)
        }
        var channelMax = Int32(server.channel_max == 0 ? 2047 : min(server.channel_max, 2047))
        // AMQP 0-9-1 frames are at least 4096 bytes (frame-min-size).
        let frameMax = Int32(server.frame_max == 0 ? 131_072 : max(4096, min(server.frame_max, 131_072)))
        let heartbeat = Int32(Self.negotiatedHeartbeat(ours: configuration.heartbeat, broker: server.heartbeat))
        channelMax = max(channelMax, 8)
        try RabbitStatus.check(
            .code(amqp_tune_connection(state, channelMax, frameMax, heartbeat)),
            operation: "tune connection")
        var tuneOk = amqp_connection_tune_ok_t(
            channel_max: UInt16(channelMax), frame_max: UInt32(frameMax),
            heartbeat: UInt16(heartbeat))
        try sendMethod(channel: 0, method: AMQP_CONNECTION_TUNE_OK_METHOD, &tuneOk, operation: "connection.tune-ok")
        heartbeatSeconds = Int(heartbeat)
        scratch.recycle()
        var open = amqp_connection_open_t(
            virtual_host: AMQPTableCodec.bytes(url.vhost, pool: scratch.pool),
            capabilities: amqp_bytes_t(len: 0, bytes: nil), insist: 1)
        try sendMethod(channel: 0, method: AMQP_CONNECTION_OPEN_METHOD, &open, operation: "connection.open")
        _ = try waitMethod(
            AMQP_CONNECTION_OPEN_OK_METHOD, deadline: deadline,
            operation: "connection.open vhost \(url.vhost)")
    }

    private func sendStartOk(_ configuration: AMQPConfiguration, url: AMQPURL) throws(AMQPError) {
        scratch.recycle()
        let pool = scratch.pool
        let properties: AMQPTable = [
            "product": "herald",
            "platform": "Swift",
            "connection_name": .string(configuration.connectionName),
            "capabilities": .table([
                "publisher_confirms": true, "consumer_cancel_notify": true, "basic.nack": true,
                "connection.blocked": true, "authentication_failure_close": true,
                "exchange_exchange_bindings": true, "per_consumer_qos": true,
            ]),
        ]
        var response: [UInt8] = [0]
        response += Array(url.user.utf8)
        response.append(0)
        response += Array(url.password.utf8)
        var startOk = amqp_connection_start_ok_t(
            client_properties: AMQPTableCodec.encode(properties, into: pool),
            mechanism: AMQPTableCodec.bytes("PLAIN", pool: pool),
            response: AMQPTableCodec.bytes(response, pool: pool),
            locale: AMQPTableCodec.bytes("en_US", pool: pool))
        try sendMethod(channel: 0, method: AMQP_CONNECTION_START_OK_METHOD, &startOk, operation: "connection.start-ok")
    }

    /// Waits for one method on channel 0 during the handshake. A `connection.close`
    /// (bad credentials, unknown vhost) becomes the broker's error.
    private func waitMethod(
        _ expected: amqp_method_number_t, deadline: ContinuousClock.Instant,
        operation: String
    ) throws(AMQPError) -> amqp_method_t {
        while true {
            let remaining = deadline - .now
            if remaining <= .zero {
                throw AMQPError(.library, operation: operation, detail: "handshake timed out", isRetryable: true)
            }
            switch readFrame(timeout: remaining) {
            case .timeout:
                continue
            case .failed(let error):
                throw AMQPError(
                    error.code, operation: operation,
                    detail: error.detail + " (broker closed the socket: wrong credentials or vhost?)",
                    libraryStatus: error.libraryStatus, isRetryable: error.isRetryable)
            case .frame(let frame):
                guard frame.frame_type == UInt8(AMQP_FRAME_METHOD) else { continue }
                let method = frame.payload.method
                if method.id == expected { return method }
                if method.id == AMQP_CONNECTION_CLOSE_METHOD {
                    var closeOk = amqp_connection_close_ok_t(dummy: 0)
                    _ = try? sendMethod(
                        channel: 0, method: AMQP_CONNECTION_CLOSE_OK_METHOD, &closeOk, operation: "close-ok")
                    let reply = amqp_rpc_reply_t(
                        reply_type: AMQP_RESPONSE_SERVER_EXCEPTION, reply: method, library_error: 0)
                    throw RabbitStatus.error(.reply(reply), operation: operation)
                        ?? AMQPError(.connectionClosed, operation: operation, isRetryable: true)
                }
                throw AMQPError(
                    .library, operation: operation, detail: "unexpected method \(method.id)", isRetryable: true)
            }
        }
    }

    /// The heartbeat interval to tune to, in seconds: ours wins when it is off
    /// or shorter than the broker's, 0 from the broker means "no opinion", and
    /// AMQP carries it in 16 bits, so a longer one is 65 535 s.
    static func negotiatedHeartbeat(ours: Duration, broker: UInt16) -> UInt16 {
        let seconds = UInt16(clamping: max(ours.components.seconds, 0))
        guard seconds > 0, broker != 0 else { return seconds }
        return min(seconds, broker)
    }
}
