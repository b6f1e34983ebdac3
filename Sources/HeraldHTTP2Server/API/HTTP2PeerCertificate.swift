/// The TLS client certificate a peer presented on its connection.
///
/// The APNs simulator uses it for certificate authentication: APNs identifies
/// the app by the certificate's subject (its UID and CN carry the bundle id).
public struct HTTP2PeerCertificate: Sendable, Equatable {
    /// The certificate in DER form.
    public var der: [UInt8]
    /// The subject in RFC 2253 form, e.g. `CN=com.example.chat,O=Example`.
    public var subject: String
    /// The subject's common name, if it has one.
    public var commonName: String?
    /// Whether OpenSSL verified the chain against the configured client CA.
    public var verified: Bool

    public init(der: [UInt8], subject: String, commonName: String?, verified: Bool) {
        self.der = der
        self.subject = subject
        self.commonName = commonName
        self.verified = verified
    }
}
