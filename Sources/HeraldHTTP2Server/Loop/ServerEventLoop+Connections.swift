import CHeraldShim
import COpenSSL
import Glibc
import HeraldCore

/// Accepting connections and handing complete HTTP/2 request streams to the handler.
extension ServerEventLoop {
    func acceptConnections() {
        guard listening else { return }
        for _ in 0..<64 {
            let fd = accept(listener.fd, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var ssl: OpaquePointer?
            if let tls {
                OpenSSLErrors.clear()
                guard let created = SSL_new(tls.context) else {
                    logger.error("cannot create a TLS connection", ["openssl": .string(OpenSSLErrors.drain())])
                    Glibc.close(fd)
                    continue
                }
                SSL_set_fd(created, fd)
                SSL_set_accept_state(created)
                ssl = created
            }
            // The protocol (and so the HTTP/2 session and its SETTINGS) comes
            // later: ALPN at the end of the handshake, or the first bytes.
            let connection = ServerConnection(id: nextConnectionID, fd: fd, ssl: ssl, loop: self)
            nextConnectionID += 1
            guard epoll.add(fd: fd, id: connection.id) else { connection.close(abort: true); continue }
            connections[connection.id] = connection
            logger.debug("connection accepted", ["connection": .int(Int(connection.id))])
        }
    }

    /// Called from nghttp2's callbacks when a request stream is complete.
    func dispatch(_ stream: RequestStream, on connection: ServerConnection) {
        connection.requestCount += 1
        if let last = connection.goAwayLastStreamID, stream.id > last {
            connection.submitReset(streamID: stream.id, code: .refusedStream)
            return
        }
        if stream.bodyTooLarge {
            connection.submitResponse(streamID: stream.id, HTTP2Response(status: 413, text: "{\"reason\":\"PayloadTooLarge\"}"))
            return
        }
        let request = HTTP2Request(
            method: stream.method, path: stream.path, authority: stream.authority, scheme: stream.scheme,
            headers: stream.headers, body: stream.body, peerCertificate: connection.peerCertificate,
            connectionID: connection.id, streamID: stream.id, httpVersion: .http2)
        stream.headers = []
        stream.body = []
        deliver(request)
        if let limit = configuration.goAwayAfterStreams, connection.requestCount >= limit, connection.goAwayLastStreamID == nil {
            connection.submitGoAway(lastStreamID: stream.id, code: .noError, debugData: [])
            logger.debug("GOAWAY after stream limit", ["connection": .int(Int(connection.id)), "last_stream": .int(Int(stream.id))])
        }
    }
}
