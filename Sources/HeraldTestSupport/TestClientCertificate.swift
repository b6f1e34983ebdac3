/// A client certificate issued by a `TestPKI`, in the two forms APNs
/// certificate authentication accepts: PEM certificate + key, and PKCS#12.
public struct TestClientCertificate: Sendable {
    public let certificatePath: String
    public let keyPath: String
    public let pkcs12Path: String
    public let pkcs12Password: String
    public let commonName: String
}
