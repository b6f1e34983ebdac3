/// TLS settings for `amqps://` connections: the trust root and an optional
/// client certificate (for brokers that authenticate clients by certificate).
public struct AMQPTLSOptions: Sendable, Equatable {
    /// PEM file of the CA that signed the broker's certificate; nil = the system trust store.
    public var caFile: String?
    /// PEM client certificate and its key, when the broker asks for one.
    public var certificateFile: String?
    public var keyFile: String?
    /// Check the broker's certificate chain. Turning this off is for local tests only.
    public var verifyPeer: Bool
    /// Check that the certificate names the host in the URL.
    public var verifyHostname: Bool

    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
                verifyPeer: Bool = true, verifyHostname: Bool = true) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.verifyPeer = verifyPeer
        self.verifyHostname = verifyHostname
    }
}
