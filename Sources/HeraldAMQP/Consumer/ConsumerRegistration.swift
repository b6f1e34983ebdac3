/// A live subscription as the connection thread sees it.
final class ConsumerRegistration {
    let spec: ConsumerSpec
    let stream: AsyncThrowingStream<AMQPDelivery, any Error>.Continuation

    init(spec: ConsumerSpec, stream: AsyncThrowingStream<AMQPDelivery, any Error>.Continuation) {
        self.spec = spec
        self.stream = stream
    }
}
