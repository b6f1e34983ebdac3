import CHeraldShim
import COpenSSL
import HeraldTLS

/// Owns the server's `SSL_CTX`: certificate, key, TLS ≥ 1.2, ALPN (`h2`,
/// then `http/1.1`), and the client-certificate policy. Shared by every
/// connection on the loop thread.
final class TLSServerContext {
    /// The ALPN protocols served, most preferred first.
    static let alpnPreference: [[UInt8]] = [Array("h2".utf8), Array("http/1.1".utf8)]
    /// The ALPN protocols of a server without HTTP/2 (`offersHTTP2` off).
    static let http1Only: [[UInt8]] = [Array("http/1.1".utf8)]

    let context: OpaquePointer

    init(_ configuration: HTTP2ServerTLSConfiguration) throws(HTTP2ServerError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(step: "SSL_CTX_new", file: nil, openssl: OpenSSLErrorQueue.drain())
        }
        self.context = context
        _ = herald_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION)
        _ = herald_ssl_ctx_set_mode(
            context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // One read() takes in every record that has arrived, instead of two per
        // record (header, then body): clients send a TLS record per HTTP/2
        // frame. What is read ahead but not yet returned is looked after by
        // the loop (`ServerConnection.hasBufferedInput`).
        herald_ssl_ctx_set_read_ahead(context, 1)
        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificateChainFile) == 1 else {
            throw .tls(
                step: "load certificate chain", file: configuration.certificateChainFile,
                openssl: OpenSSLErrorQueue.drain())
        }
        guard SSL_CTX_use_PrivateKey_file(context, configuration.privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
            throw .tls(step: "load private key", file: configuration.privateKeyFile, openssl: OpenSSLErrorQueue.drain())
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw .tls(
                step: "match private key to certificate", file: configuration.privateKeyFile,
                openssl: OpenSSLErrorQueue.drain())
        }
        // ALPN: h2 when the client offers it (whatever its order), else
        // http/1.1; a client offering neither gets no ALPN answer, and its
        // first bytes decide (`ServerConnection.receiveUndecided`).
        if configuration.offersHTTP2 {
            SSL_CTX_set_alpn_select_cb(
                context,
                { _, out, outLength, offered, offeredLength, _ in
                    TLSServerContext.select(TLSServerContext.alpnPreference, out, outLength, offered, offeredLength)
                }, nil)
        } else {
            SSL_CTX_set_alpn_select_cb(
                context,
                { _, out, outLength, offered, offeredLength, _ in
                    TLSServerContext.select(TLSServerContext.http1Only, out, outLength, offered, offeredLength)
                }, nil)
        }
        switch configuration.clientAuthentication {
        case .none:
            break
        case .optional(let caFile):
            if let caFile { try loadClientCA(caFile) }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, { _, _ in 1 })
        case .required(let caFile):
            try loadClientCA(caFile)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
    }

    deinit { SSL_CTX_free(context) }

    /// The first of `preference` the client `offered` (ALPN wire format), written to `out`.
    private static func select(
        _ preference: [[UInt8]], _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
        _ outLength: UnsafeMutablePointer<UInt8>?,
        _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32
    ) -> Int32 {
        guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
        let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
        for wanted in preference {
            var index = 0
            while index < list.count {
                let length = Int(list[index])
                guard index + 1 + length <= list.count else { break }
                if length == wanted.count, list[(index + 1)...(index + length)].elementsEqual(wanted) {
                    out.pointee = offered + index + 1
                    outLength.pointee = UInt8(length)
                    return SSL_TLSEXT_ERR_OK
                }
                index += 1 + length
            }
        }
        return SSL_TLSEXT_ERR_NOACK
    }

    private func loadClientCA(_ file: String) throws(HTTP2ServerError) {
        guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
            throw .tls(step: "load client CA", file: file, openssl: OpenSSLErrorQueue.drain())
        }
        if let names = SSL_load_client_CA_file(file) { SSL_CTX_set_client_CA_list(context, names) }
    }
}
