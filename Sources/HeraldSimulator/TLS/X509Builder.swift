import CHeraldShim
import COpenSSL
import HeraldTLS

/// Builds and signs one X.509 certificate with OpenSSL; owns the `X509` until
/// `pem()` renders it. Used only at simulator start-up.
final class X509Builder {
    let certificate: OpaquePointer

    init(commonName: String, publicKey: OpaquePointer, validDays: Int) throws(SimulatorTLSError) {
        guard let certificate = X509_new() else { throw Self.failure("create certificate") }
        self.certificate = certificate
        var serial: UInt64 = 0
        withUnsafeMutableBytes(of: &serial) { _ = RAND_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), 8) }
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial >> 1) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), validDays * 86_400) != nil,
            X509_set_pubkey(certificate, publicKey) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", 0x1001 /* MBSTRING_ASC */, commonName, -1, -1, 0) == 1
        else { throw Self.failure("fill certificate for \(commonName)") }
    }

    deinit { X509_free(certificate) }

    /// Adds an extension in OpenSSL's config syntax, e.g. (`NID_subject_alt_name`, `DNS:localhost`).
    func addExtension(_ nid: Int32, _ value: String, issuer: OpaquePointer?) throws(SimulatorTLSError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer ?? certificate, certificate, nil, nil, 0)
        guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw Self.failure("extension \(value)") }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(certificate, ext, -1) == 1 else { throw Self.failure("add extension \(value)") }
    }

    /// Sets the issuer and signs with the issuer's key (SHA-256).
    func sign(issuer: OpaquePointer?, key: OpaquePointer) throws(SimulatorTLSError) {
        let issuerName = X509_get_subject_name(issuer ?? certificate)
        guard X509_set_issuer_name(certificate, issuerName) == 1, X509_sign(certificate, key, EVP_sha256()) > 0 else {
            throw Self.failure("sign certificate")
        }
    }

    func pem() throws(SimulatorTLSError) -> String {
        try Self.pem("write certificate") { PEM_write_bio_X509($0, certificate) }
    }

    static func privateKeyPEM(_ key: OpaquePointer) throws(SimulatorTLSError) -> String {
        try pem("write private key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    private static func pem(_ step: String, _ write: (OpaquePointer) -> Int32) throws(SimulatorTLSError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure(step) }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw failure(step) }
        var data: UnsafeMutablePointer<CChar>?
        let count = herald_bio_get_mem_data(bio, &data)
        guard let data, count > 0 else { throw failure(step) }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    }

    /// The one place an OpenSSL failure becomes a Swift error (drains the error queue).
    static func failure(_ step: String) -> SimulatorTLSError {
        SimulatorTLSError(step, OpenSSLErrorQueue.drain(ifEmpty: "OpenSSL reported no detail"))
    }
}
