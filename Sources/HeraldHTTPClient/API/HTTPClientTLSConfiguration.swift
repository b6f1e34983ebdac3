/// Trust and identity for the client's TLS connections. Verification of the
/// server's certificate and host name is always on; there is no switch.
public struct HTTPClientTLSConfiguration: Sendable, Hashable {
    /// A client certificate, for APNs certificate-based authentication.
    public enum ClientCertificate: Sendable, Hashable {
        /// PEM certificate and PEM private key (optionally encrypted with `keyPassword`).
        case pem(certificateFile: String, keyFile: String, keyPassword: String? = nil)
        /// PKCS#12 bundle holding certificate and key, as exported from Keychain for APNs.
        case pkcs12(file: String, password: String)
    }

    /// An extra trust root (PEM), trusted in addition to the system store.
    public var caFile: String?
    public var clientCertificate: ClientCertificate?

    public init(caFile: String? = nil, clientCertificate: ClientCertificate? = nil) {
        self.caFile = caFile
        self.clientCertificate = clientCertificate
    }
}

extension HTTPClientTLSConfiguration {
    /// Loads the CA file and client certificate (with its password) as a
    /// connection would, without connecting: both engines read the same
    /// files, so what loads here loads for either. Start-up uses it so a
    /// broken file is an error there, not on every connection.
    public func validate() throws(HTTPClientError) {
        _ = try H2TLSContext(self)
    }
}
