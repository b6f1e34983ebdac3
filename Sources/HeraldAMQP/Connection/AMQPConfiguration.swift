/// Everything needed to open and keep an AMQP connection: where, how to
/// authenticate, heartbeats, the confirm window and the reconnect policy.
/// The lead maps `config.yaml`'s `amqp:` section onto it.
public struct AMQPConfiguration: Sendable {
    /// The broker's addresses — one, or the nodes of a cluster — each with its
    /// own credentials, scheme and TLS files. Every connect tries them in turn,
    /// starting after the node whose connection was lost, until one answers;
    /// the back-off applies only when all of them failed. Never empty.
    public var addresses: [AMQPAddress]
    /// Shuffle `addresses` once when the connection starts, so instances given
    /// the same list spread over the nodes instead of all landing on the first.
    public var shuffleURLs = false
    /// Heartbeat interval proposed to the broker (the smaller of both sides wins); 0 disables.
    public var heartbeat: Duration
    /// Limit for TCP connect, TLS and the AMQP handshake.
    public var connectTimeout: Duration
    /// How long a synchronous method (declare, bind, delete, purge, `basic.qos`,
    /// `basic.consume`, `basic.cancel`) waits for the broker's answer before it
    /// fails retryably. A quorum queue's declare or delete waits for its Raft
    /// group, which on a busy cluster takes seconds.
    public var operationTimeout: Duration = .seconds(10)
    /// Publishes sent but not yet confirmed; further publishes wait. A few hundred is the sweet spot.
    public var confirmWindow: Int
    /// Back-off between reconnect attempts, and when to give up.
    public var reconnect: BackoffPolicy
    /// How long `shutdown()` waits for in-flight confirms before closing.
    public var shutdownGracePeriod: Duration
    /// Shown in the broker's management UI (`connection_name` client property).
    public var connectionName: String
    /// How long single acks may wait for others to go out with them as one
    /// `multiple` ack (`AckHolding`); zero sends each turn's acks at its end.
    public var ackDelay: Duration = .milliseconds(5)
    /// While busy, the connection's thread looks for frames and commands once
    /// per this window instead of waking for each (`LoopPacing`): fewer
    /// wake-ups at moderate rates, at most this much added wait. `.zero` (the
    /// library's default) wakes for everything; Herald's `io_pacing` sets it.
    public var pacingWindow: Duration = .zero

    public init(
        url: AMQPURL, tls: AMQPTLSOptions = AMQPTLSOptions(), heartbeat: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(10), confirmWindow: Int = 512, reconnect: BackoffPolicy = BackoffPolicy(),
        shutdownGracePeriod: Duration = .seconds(5), connectionName: String = "herald"
    ) {
        self.addresses = [AMQPAddress(url, tls: tls)]
        self.heartbeat = heartbeat
        self.connectTimeout = connectTimeout
        self.confirmWindow = max(1, confirmWindow)
        self.reconnect = reconnect
        self.shutdownGracePeriod = shutdownGracePeriod
        self.connectionName = connectionName
    }

    /// Parses `url` (see `AMQPURL`) and keeps the other defaults.
    public init(url: String) throws(AMQPError) {
        self.init(url: try AMQPURL(url))
    }
}
