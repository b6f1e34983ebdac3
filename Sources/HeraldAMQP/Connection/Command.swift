/// A request from async Swift to the connection thread, with the continuation
/// the thread resumes when it is done.
enum Command: Sendable {
    /// Messages published together; `PublishWaiter` resumes its caller once all are settled.
    case publish([AMQPMessage], mandatory: Bool, PublishWaiter)
    /// A nil continuation: nobody waits for the settlement to be written (failures are logged).
    case settle(DeliveryTag, Settlement, CheckedContinuation<Void, any Error>?)
    case consume(
        ConsumerSpec, AsyncThrowingStream<AMQPDelivery, any Error>.Continuation, CheckedContinuation<Void, any Error>)
    case cancel(consumerTag: String, CheckedContinuation<Void, any Error>?)
    /// Runs `body` with the connection and the admin channel (topology, queue inspection).
    case admin(
        String, @Sendable (RabbitConnection, UInt16) throws(AMQPError) -> AdminResult,
        CheckedContinuation<AdminResult, any Error>)
    case shutdown

    /// Fails the command's continuation (used when it cannot run).
    func fail(_ error: AMQPError) {
        switch self {
        case .publish(let messages, _, let waiter): for _ in messages { waiter.resume(throwing: error) }
        case .settle(_, _, let c): c?.resume(throwing: error)
        case .consume(_, let stream, let c):
            stream.finish(throwing: error)
            c.resume(throwing: error)
        case .cancel(_, let c): c?.resume(throwing: error)
        case .admin(_, _, let c): c.resume(throwing: error)
        case .shutdown: break
        }
    }
}

/// What an admin command returns.
enum AdminResult: Sendable {
    case none
    case count(UInt32)
    case name(String)
}
