/// The server's certificate and whether it asks clients for theirs.
public struct HTTP2ServerTLSConfiguration: Sendable {
    /// Whether the server requests a TLS client certificate.
    public enum ClientAuthentication: Sendable {
        /// No client certificate is requested.
        case none
        /// A certificate is requested and recorded but any (or none) is accepted;
        /// `HTTP2PeerCertificate.verified` says whether it chains to `caFile`.
        case optional(caFile: String?)
        /// The handshake fails unless the client presents a certificate that chains to `caFile`.
        case required(caFile: String)
    }

    /// PEM file with the server certificate followed by any intermediates.
    public var certificateChainFile: String
    /// PEM file with the server's private key.
    public var privateKeyFile: String
    public var clientAuthentication: ClientAuthentication
    /// Whether ALPN selects `h2` for a client that offers it. Off, the server
    /// selects only `http/1.1`, as a push service that speaks HTTP/1.1 alone
    /// does (the simulator's HTTP/1.1 push service, for clients that must
    /// fall back to it).
    public var offersHTTP2 = true

    public init(
        certificateChainFile: String, privateKeyFile: String, clientAuthentication: ClientAuthentication = .none
    ) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
        self.clientAuthentication = clientAuthentication
    }
}
