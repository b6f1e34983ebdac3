import CHeraldShim
import COpenSSL

/// Reads the client certificate of a finished handshake into an `HTTP2PeerCertificate`.
enum PeerCertificateReader {
    static func read(from ssl: OpaquePointer) -> HTTP2PeerCertificate? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_X509(certificate, &cursor)
        }
        let name = X509_get_subject_name(certificate)
        return HTTP2PeerCertificate(
            der: der, subject: subject(name), commonName: commonName(name),
            verified: SSL_get_verify_result(ssl) == X509_V_OK)
    }

    /// `XN_FLAG_RFC2253`, a macro Swift cannot import: ASN1_STRFLGS_RFC2253 (0x317) |
    /// XN_FLAG_SEP_COMMA_PLUS (1 << 16) | XN_FLAG_DN_REV (1 << 20) | XN_FLAG_DUMP_UNKNOWN_FIELDS (1 << 24).
    private static let rfc2253Flags: UInt = 0x317 | (1 << 16) | (1 << 20) | (1 << 24)

    private static func subject(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, rfc2253Flags) >= 0 else { return "" }
        var data: UnsafeMutablePointer<CChar>?
        let count = herald_bio_get_mem_data(bio, &data)
        guard let data, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let value = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let count = ASN1_STRING_to_UTF8(&utf8, value)
        guard count >= 0, let utf8 else { return nil }
        defer { CRYPTO_free(utf8, #fileID, #line) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(count)), as: UTF8.self)
    }
}
