import CHeraldShim
import COpenSSL
import Glibc
import HeraldTLS

/// The client's `SSL_CTX`, made once per `HTTPClient` from its
/// `HTTPClientTLSConfiguration`: peer verification on (system store plus
/// `caFile`), TLS ≥ 1.2, ALPN `h2`, and the client certificate for APNs
/// certificate authentication. Errors in our own TLS material are
/// `.tlsConfiguration` and name the file.
final class H2TLSContext {
    let context: OpaquePointer

    init(_ tls: HTTPClientTLSConfiguration) throws(HTTPClientError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw Self.failure("create the TLS context", file: nil)
        }
        self.context = context
        _ = herald_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION)
        _ = herald_ssl_ctx_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // One read() takes in every record that has arrived, instead of two per
        // record (header, then body). The connection reads until OpenSSL wants
        // more from the socket, so nothing read ahead is left unseen by epoll.
        herald_ssl_ctx_set_read_ahead(context, 1)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(context) == 1 else {
            throw Self.failure("load the system trust store", file: nil)
        }
        if let caFile = tls.caFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 {
            throw Self.failure("load the CA file", file: caFile)
        }
        let alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
        // Returns 0 on success, unlike most of OpenSSL.
        guard SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else {
            throw Self.failure("offer ALPN h2", file: nil)
        }
        switch tls.clientCertificate {
        case .none:
            break
        case .pem(let certificateFile, let keyFile, let keyPassword):
            try usePEM(certificateFile: certificateFile, keyFile: keyFile, password: keyPassword)
        case .pkcs12(let file, let password):
            try usePKCS12(file: file, password: password)
        }
        OpenSSLErrorQueue.clear()
    }

    deinit { SSL_CTX_free(context) }

    private func usePEM(certificateFile: String, keyFile: String, password: String?) throws(HTTPClientError) {
        guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
            throw Self.failure("load the client certificate", file: certificateFile)
        }
        // The key's password reaches OpenSSL through the callback's user data, only while loading.
        let secret = strdup(password ?? "")
        defer {
            if let secret { explicit_bzero(secret, strlen(secret)); free(secret) }
        }
        SSL_CTX_set_default_passwd_cb_userdata(context, secret)
        SSL_CTX_set_default_passwd_cb(context) { buffer, size, _, userData in
            guard let buffer, let userData else { return 0 }
            let secret = userData.assumingMemoryBound(to: CChar.self)
            let length = min(Int(strlen(secret)), Int(size))
            memcpy(buffer, secret, length)
            return Int32(length)
        }
        let loaded = SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM)
        SSL_CTX_set_default_passwd_cb(context, nil)
        SSL_CTX_set_default_passwd_cb_userdata(context, nil)
        guard loaded == 1 else { throw Self.failure("load the client key (wrong password?)", file: keyFile) }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw Self.failure("match the client key to its certificate", file: keyFile)
        }
    }

    private func usePKCS12(file: String, password: String) throws(HTTPClientError) {
        guard let bio = BIO_new_file(file, "rb") else { throw Self.failure("open the PKCS#12 file", file: file) }
        defer { BIO_free(bio) }
        guard let bundle = d2i_PKCS12_bio(bio, nil) else { throw Self.failure("read the PKCS#12 file", file: file) }
        defer { PKCS12_free(bundle) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var chain: OpaquePointer?
        guard PKCS12_parse(bundle, password, &key, &certificate, &chain) == 1, let key, let certificate else {
            throw Self.failure("open the PKCS#12 file (wrong password?)", file: file)
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
            if let chain { OPENSSL_sk_pop_free(chain, { X509_free(OpaquePointer($0)) }) }
        }
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1,
            SSL_CTX_check_private_key(context) == 1
        else { throw Self.failure("use the PKCS#12 certificate and key", file: file) }
        if let chain {
            for index in 0..<OPENSSL_sk_num(chain) {
                guard let extra = OPENSSL_sk_value(chain, index) else { continue }
                // SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl; add1 takes its own reference.
                _ = SSL_CTX_ctrl(context, SSL_CTRL_CHAIN_CERT, 1, extra)
            }
        }
    }

    private static func failure(_ step: String, file: String?) -> HTTPClientError {
        let detail = OpenSSLErrorQueue.drain()
        let at = file.map { " \($0)" } ?? ""
        return HTTPClientError(kind: .tlsConfiguration, host: "", message: "could not \(step)\(at): \(detail)")
    }
}
