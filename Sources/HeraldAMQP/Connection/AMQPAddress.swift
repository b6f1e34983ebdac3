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

/// TLS settings for `amqps://` connections: an extra trust root and an
/// optional client certificate (for brokers that authenticate clients by
/// certificate). The broker's chain and host name are always verified.
public struct AMQPTLSOptions: Sendable, Equatable {
    /// PEM file of a CA that signed the broker's certificate, trusted besides
    /// the system trust store (which is always used).
    public var caFile: String?
    /// PEM client certificate and its key, when the broker asks for one.
    public var certificateFile: String?
    public var keyFile: String?

    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
