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
