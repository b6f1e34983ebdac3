/// What a consumer subscribes to; kept by the connection thread so it can
/// subscribe again, with the same tag, after a reconnect.
struct ConsumerSpec: Sendable {
    var queue: String
    var tag: String
    var prefetch: UInt16
    var arguments: AMQPTable
}
