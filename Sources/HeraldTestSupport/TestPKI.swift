import Foundation
import HeraldSystem

/// A throwaway certificate authority with a server certificate for
/// `localhost`/`127.0.0.1`, made in a temporary directory for one test run.
///
/// Tests need real TLS (verification is always on in the client), but no test
/// may depend on files checked into the repository or on the system trust
/// store. Everything is generated with the `openssl` command line tool (an
/// EC P-256 key per certificate, valid for two days) and deleted by `remove()`.
public struct TestPKI: Sendable {
    /// The directory that holds every generated file.
    public let directory: String
    /// The CA certificate (PEM): pass it as the client's `caFile`.
    public let caCertificatePath: String
    /// The server certificate chain (PEM) for `localhost` and `127.0.0.1`.
    public let serverCertificatePath: String
    /// The server's private key (PEM, unencrypted).
    public let serverKeyPath: String
    private let caKeyPath: String

    /// Creates a new CA and a server certificate signed by it, running openssl
    /// on a thread of its own (never on the cooperative pool).
    /// - Parameter name: the CA's common name.
    public static func make(name: String = "Herald Test CA") async throws(TestPKIError) -> TestPKI {
        try await offPool { () throws(TestPKIError) in try makeNow(name: name) }
    }

    /// Creates the CA and server certificate on the calling thread, for
    /// ``SharedFixture`` (which already runs off the pool) and tools.
    public static func makeNow(name: String = "Herald Test CA") throws(TestPKIError) -> TestPKI {
        let directory: String
        do {
            directory = try makeTemporaryDirectory("pki")
        } catch {
            throw TestPKIError(step: "mkdtemp", output: error.description)
        }
        let pki = TestPKI(directory: directory)
        try OpenSSLCommand.run(
            step: "create CA",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", pki.caKeyPath, "-out", pki.caCertificatePath, "-days", "2", "-subj", "/CN=\(name)",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try pki.issue(
            commonName: "localhost", keyPath: pki.serverKeyPath, certificatePath: pki.serverCertificatePath,
            extensions:
                "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
        return pki
    }

    private init(directory: String) {
        self.directory = directory
        caCertificatePath = directory + "/ca.pem"
        caKeyPath = directory + "/ca.key"
        serverCertificatePath = directory + "/server.pem"
        serverKeyPath = directory + "/server.key"
    }

    /// A file name of its own per call: tests issue certificates for the same
    /// name concurrently, and one's files must not overwrite another's.
    private static func uniqueBase(_ prefix: String, _ commonName: String) -> String {
        prefix + commonName.filter { $0.isLetter || $0.isNumber } + "-"
            + String(UInt64.random(in: 1...UInt64.max), radix: 16)
    }

    /// Issues a client certificate (for APNs certificate authentication) and
    /// bundles it with its key as PKCS#12 protected by `pkcs12Password`.
    public func makeClientCertificate(
        commonName: String, pkcs12Password: String = "herald-test"
    ) async throws(TestPKIError) -> TestClientCertificate {
        try await Self.offPool { () throws(TestPKIError) in
            try makeClientCertificateNow(commonName: commonName, pkcs12Password: pkcs12Password)
        }
    }

    private func makeClientCertificateNow(commonName: String, pkcs12Password: String) throws(TestPKIError)
        -> TestClientCertificate
    {
        let base = Self.uniqueBase(directory + "/client-", commonName)
        let certificate = TestClientCertificate(
            certificatePath: base + ".pem", keyPath: base + ".key", pkcs12Path: base + ".p12",
            pkcs12Password: pkcs12Password, commonName: commonName)
        try issue(
            commonName: commonName, keyPath: certificate.keyPath, certificatePath: certificate.certificatePath,
            extensions: "extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n")
        try OpenSSLCommand.run(
            step: "export PKCS#12",
            [
                "pkcs12", "-export", "-in", certificate.certificatePath, "-inkey", certificate.keyPath,
                "-out", certificate.pkcs12Path, "-passout", "pass:" + pkcs12Password, "-name", commonName,
            ])
        return certificate
    }

    /// Issues another server certificate from this CA for `subjectAltNames`
    /// (`DNS:wrong.example.com`, `IP:10.0.0.1`): a certificate the client
    /// trusts but that names another host, for host-check tests.
    public func makeServerCertificate(
        commonName: String, subjectAltNames: [String]
    ) async throws(TestPKIError) -> (certificatePath: String, keyPath: String) {
        try await Self.offPool { () throws(TestPKIError) in
            try makeServerCertificateNow(commonName: commonName, subjectAltNames: subjectAltNames)
        }
    }

    private func makeServerCertificateNow(
        commonName: String, subjectAltNames: [String]
    ) throws(TestPKIError) -> (certificatePath: String, keyPath: String) {
        let base = Self.uniqueBase(directory + "/server-", commonName)
        let paths = (certificatePath: base + ".pem", keyPath: base + ".key")
        try issue(
            commonName: commonName, keyPath: paths.keyPath, certificatePath: paths.certificatePath,
            extensions:
                "subjectAltName=\(subjectAltNames.joined(separator: ","))\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n"
        )
        return paths
    }

    /// Runs `body` (openssl processes) on a thread of its own.
    private static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(TestPKIError) -> T)
        async throws(TestPKIError) -> T
    {
        try await onOwnThread { Result { () throws(TestPKIError) -> T in try body() } }.get()
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        removeTemporaryDirectory(directory)
    }

    private func issue(
        commonName: String, keyPath: String, certificatePath: String, extensions: String
    ) throws(TestPKIError) {
        let request = certificatePath + ".csr"
        let extensionsPath = certificatePath + ".ext"
        do {
            try extensions.write(toFile: extensionsPath, atomically: true, encoding: .utf8)
        } catch {
            throw TestPKIError(step: "write extensions", output: "\(error)")
        }
        try OpenSSLCommand.run(
            step: "create key and request for \(commonName)",
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyPath, "-out", request, "-subj", "/CN=\(commonName)",
            ])
        try OpenSSLCommand.run(
            step: "sign certificate for \(commonName)",
            [
                "x509", "-req", "-in", request, "-CA", caCertificatePath, "-CAkey", caKeyPath,
                // A random serial, not -CAcreateserial: tests issue certificates concurrently.
                "-set_serial", "0x" + String(UInt64.random(in: 1...UInt64(Int64.max)), radix: 16),
                "-out", certificatePath, "-days", "2", "-extfile", extensionsPath,
            ])
    }
}

extension TestPKI {
    /// A PKI every test of the process shares: made on first use (a
    /// ``SharedFixture``, off the cooperative pool), its directory removed
    /// when the process exits.
    public static func shared(name: String) -> SharedFixture<TestPKI, TestPKIError> {
        SharedFixture { () throws(TestPKIError) -> TestPKI in
            let pki = try makeNow(name: name)
            let first = sharedPKIs.withLock { made in
                made.append(pki)
                return made.count == 1
            }
            if first { atexit { for pki in sharedPKIs.withLock({ $0 }) { pki.remove() } } }
            return pki
        }
    }
}

/// The shared PKIs made so far, for the one `atexit` handler that removes them.
private let sharedPKIs = Locked<[TestPKI]>([])
