import HeraldHTTPClient

/// How the provider proves who it is to APNs: a provider token (JWT) in each
/// request, or a TLS client certificate on each connection (no JWT).
public enum APNsAuthentication: Sendable {
    case token(ProviderTokenManager)
    case certificate(HTTPClientTLSConfiguration.ClientCertificate)

    /// The client certificate for `path`: PKCS#12 for `.p12`/`.pfx` files
    /// (Keychain exports), else a PEM file holding certificate and key.
    public static func certificate(path: String, password: String?) -> APNsAuthentication {
        let lower = path.lowercased()
        if lower.hasSuffix(".p12") || lower.hasSuffix(".pfx") {
            return .certificate(.pkcs12(file: path, password: password ?? ""))
        }
        return .certificate(.pem(certificateFile: path, keyFile: path, keyPassword: password))
    }
}
