import CHeraldShim
import COpenSSL
import Foundation

/// The simulator's own TLS identity, made at start-up when none is given: a
/// CA and a server certificate for `localhost` and `127.0.0.1`, written to a
/// directory so Herald's `ca_file` (or `curl --cacert`) can trust the CA.
///
/// Product code, not test support: `herald simulate` without `--tls-cert`
/// calls it. Keys are EC P-256; certificates are valid for `validDays`.
public struct SimulatorTLSMaterial: Sendable, Equatable {
    public let directory: String
    /// `ca.pem`: give it to clients as their extra trust root.
    public var caCertificatePath: String { directory + "/ca.pem" }
    /// `server.pem` and `server.key`: the simulator's certificate and key.
    public var serverCertificatePath: String { directory + "/server.pem" }
    public var serverKeyPath: String { directory + "/server.key" }

    /// Material already in `directory`, if all three files are there.
    public static func existing(in directory: String) -> SimulatorTLSMaterial? {
        let material = SimulatorTLSMaterial(directory: directory)
        let files = [material.caCertificatePath, material.serverCertificatePath, material.serverKeyPath]
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) } ? material : nil
    }

    private init(directory: String) { self.directory = directory }

    /// Makes a new CA and server certificate and writes them to `directory`
    /// (created if needed; keys readable by the owner only).
    public static func generate(in directory: String, validDays: Int = 30) throws(SimulatorTLSError)
        -> SimulatorTLSMaterial
    {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw SimulatorTLSError("create \(directory)", "\(error)")
        }
        let material = SimulatorTLSMaterial(directory: directory)
        guard let caKey = herald_generate_ec_p256_key() else { throw X509Builder.failure("generate CA key") }
        defer { EVP_PKEY_free(caKey) }
        guard let serverKey = herald_generate_ec_p256_key() else { throw X509Builder.failure("generate server key") }
        defer { EVP_PKEY_free(serverKey) }

        let ca = try X509Builder(commonName: "Herald Simulator CA", publicKey: caKey, validDays: validDays)
        try ca.addExtension(NID_basic_constraints, "critical,CA:TRUE", issuer: nil)
        try ca.addExtension(NID_key_usage, "critical,keyCertSign,cRLSign", issuer: nil)
        try ca.addExtension(NID_subject_key_identifier, "hash", issuer: nil)
        try ca.sign(issuer: nil, key: caKey)

        let server = try X509Builder(commonName: "localhost", publicKey: serverKey, validDays: validDays)
        try server.addExtension(NID_basic_constraints, "CA:FALSE", issuer: ca.certificate)
        try server.addExtension(NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1", issuer: ca.certificate)
        try server.addExtension(NID_ext_key_usage, "serverAuth", issuer: ca.certificate)
        try server.addExtension(NID_authority_key_identifier, "keyid:always", issuer: ca.certificate)
        try server.sign(issuer: ca.certificate, key: caKey)

        try write(try ca.pem(), to: material.caCertificatePath, private: false)
        try write(try server.pem() + ca.pem(), to: material.serverCertificatePath, private: false)
        try write(try X509Builder.privateKeyPEM(serverKey), to: material.serverKeyPath, private: true)
        return material
    }

    private static func write(_ text: String, to path: String, private isPrivate: Bool) throws(SimulatorTLSError) {
        let attributes: [FileAttributeKey: Any] = [.posixPermissions: isPrivate ? 0o600 : 0o644]
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: attributes) else {
            throw SimulatorTLSError("write \(path)", String(cString: strerror(errno)))
        }
    }
}
