/// One broker node to connect to: its URL (scheme, credentials, vhost) and the
/// TLS files for an `amqps://` connection to it. Each node has its own, so the
/// nodes of one cluster may present certificates of different CAs or ask for
/// different client certificates.
public struct AMQPAddress: Sendable, Equatable {
    public var url: AMQPURL
    /// Used when `url` is `amqps://`; ignored otherwise.
    public var tls: AMQPTLSOptions

    public init(_ url: AMQPURL, tls: AMQPTLSOptions = AMQPTLSOptions()) {
        self.url = url
        self.tls = tls
    }
}
