import CRabbitMQ

extension RabbitConnection {
    /// Checks the reply of the synchronous rabbitmq-c call just made.
    private func checkReply(_ operation: @autoclosure () -> String) throws(AMQPError) {
        try RabbitStatus.check(.reply(amqp_get_rpc_reply(state)), operation: operation())
    }

    /// The C bytes of `text`, valid until the next `scratch.recycle()`.
    func bytes(_ text: String) -> amqp_bytes_t { AMQPTableCodec.bytes(text, pool: scratch.pool) }

    // MARK: Channels

    func openChannel(_ channel: UInt16) throws(AMQPError) {
        _ = amqp_channel_open(state, channel)
        try checkReply("channel.open \(channel)")
    }

    /// Answers a broker's `channel.close` so the channel number can be reused.
    func sendChannelCloseOk(_ channel: UInt16) throws(AMQPError) {
        var ok = amqp_channel_close_ok_t(dummy: 0)
        try sendMethod(channel: channel, method: AMQP_CHANNEL_CLOSE_OK_METHOD, &ok, operation: "channel.close-ok")
    }

    func sendConnectionCloseOk() {
        var ok = amqp_connection_close_ok_t(dummy: 0)
        _ = try? sendMethod(channel: 0, method: AMQP_CONNECTION_CLOSE_OK_METHOD, &ok, operation: "connection.close-ok")
    }

    func confirmSelect(_ channel: UInt16) throws(AMQPError) {
        _ = amqp_confirm_select(state, channel)
        try checkReply("confirm.select")
    }

    // MARK: Consuming

    func qos(_ channel: UInt16, prefetch: UInt16) throws(AMQPError) {
        _ = amqp_basic_qos(state, channel, 0, prefetch, 0)
        try checkReply("basic.qos \(prefetch)")
    }

    /// Starts a consumer with manual acks; returns the tag the broker confirmed.
    func consume(_ channel: UInt16, queue: String, tag: String, arguments: AMQPTable) throws(AMQPError) -> String {
        scratch.recycle()
        let ok = amqp_basic_consume(
            state, channel, bytes(queue), bytes(tag), 0, 0, 0,
            AMQPTableCodec.encode(arguments, into: scratch.pool))
        try checkReply("basic.consume \(queue)")
        return ok.map { String(amqpBytes: $0.pointee.consumer_tag) } ?? tag
    }

    func cancel(_ channel: UInt16, tag: String) throws(AMQPError) {
        scratch.recycle()
        _ = amqp_basic_cancel(state, channel, bytes(tag))
        try checkReply("basic.cancel \(tag)")
    }

    func ack(_ channel: UInt16, tag: UInt64, multiple: Bool) throws(AMQPError) {
        try RabbitStatus.check(
            .code(amqp_basic_ack(state, channel, tag, multiple ? 1 : 0)), operation: "basic.ack \(tag)")
    }

    func nack(_ channel: UInt16, tag: UInt64, multiple: Bool, requeue: Bool) throws(AMQPError) {
        try RabbitStatus.check(
            .code(amqp_basic_nack(state, channel, tag, multiple ? 1 : 0, requeue ? 1 : 0)),
            operation: "basic.nack \(tag)")
    }

    func reject(_ channel: UInt16, tag: UInt64, requeue: Bool) throws(AMQPError) {
        try RabbitStatus.check(
            .code(amqp_basic_reject(state, channel, tag, requeue ? 1 : 0)),
            operation: "basic.reject \(tag)")
    }

    // MARK: Publishing

    func publish(_ channel: UInt16, _ message: AMQPMessage, mandatory: Bool) throws(AMQPError) {
        scratch.recycle()
        var properties = message.properties.encoded(pool: scratch.pool)
        let status = message.body.withUnsafeBytes { raw in
            amqp_basic_publish(
                state, channel, bytes(message.exchange), bytes(message.routingKey), mandatory ? 1 : 0, 0,
                &properties,
                amqp_bytes_t(len: raw.count, bytes: UnsafeMutableRawPointer(mutating: raw.baseAddress)))
        }
        try RabbitStatus.check(.code(status), operation: "basic.publish \(message.exchange) \(message.routingKey)")
    }

    // MARK: Topology

    func declareExchange(_ channel: UInt16, name: String, type: String, durable: Bool, arguments: AMQPTable = [:])
        throws(AMQPError)
    {
        scratch.recycle()
        _ = amqp_exchange_declare(
            state, channel, bytes(name), bytes(type), 0, durable ? 1 : 0, 0, 0,
            AMQPTableCodec.encode(arguments, into: scratch.pool))
        try checkReply("exchange.declare \(name) (\(type))")
    }

    /// Declares a queue (or, `passive`, checks it exists); returns its ready message count.
    @discardableResult
    /// Durable or exclusive (`QueueLifetime`), never auto-delete; `passive` only checks that the queue exists.
    func declareQueue(
        _ channel: UInt16, name: String, lifetime: QueueLifetime, passive: Bool = false,
        arguments: AMQPTable = [:]
    ) throws(AMQPError) -> UInt32 {
        scratch.recycle()
        let durable: amqp_boolean_t = lifetime == .durable ? 1 : 0
        let ok = amqp_queue_declare(
            state, channel, bytes(name), passive ? 1 : 0, durable, lifetime == .exclusive ? 1 : 0,
            0, AMQPTableCodec.encode(arguments, into: scratch.pool))
        try checkReply("queue.declare \(name)")
        return ok?.pointee.message_count ?? 0
    }

    /// Declares a queue the broker names, exclusive to this connection and
    /// auto-deleted (with the connection, or when its last consumer is
    /// cancelled); returns the name the broker gave it.
    func declareServerNamedQueue(_ channel: UInt16, arguments: AMQPTable = [:]) throws(AMQPError) -> String {
        scratch.recycle()
        let ok = amqp_queue_declare(
            state, channel, amqp_bytes_t(len: 0, bytes: nil), 0, 0, 1, 1,
            AMQPTableCodec.encode(arguments, into: scratch.pool))
        try checkReply("queue.declare (server-named)")
        guard let name = ok.map({ String(amqpBytes: $0.pointee.queue) }), !name.isEmpty else {
            throw AMQPError(
                .library, operation: "queue.declare (server-named)", detail: "the broker named no queue",
                isRetryable: true)
        }
        return name
    }

    func bindQueue(_ channel: UInt16, queue: String, exchange: String, routingKey: String, arguments: AMQPTable = [:])
        throws(AMQPError)
    {
        scratch.recycle()
        _ = amqp_queue_bind(
            state, channel, bytes(queue), bytes(exchange), bytes(routingKey),
            AMQPTableCodec.encode(arguments, into: scratch.pool))
        try checkReply("queue.bind \(queue) to \(exchange) key \(routingKey)")
    }

    func deleteQueue(_ channel: UInt16, name: String) throws(AMQPError) {
        scratch.recycle()
        _ = amqp_queue_delete(state, channel, bytes(name), 0, 0)
        try checkReply("queue.delete \(name)")
    }

    func deleteExchange(_ channel: UInt16, name: String) throws(AMQPError) {
        scratch.recycle()
        _ = amqp_exchange_delete(state, channel, bytes(name), 0)
        try checkReply("exchange.delete \(name)")
    }

    /// Deletes every ready message of `name`; returns how many there were.
    @discardableResult
    func purgeQueue(_ channel: UInt16, name: String) throws(AMQPError) -> UInt32 {
        scratch.recycle()
        let ok = amqp_queue_purge(state, channel, bytes(name))
        try checkReply("queue.purge \(name)")
        return ok?.pointee.message_count ?? 0
    }
}
