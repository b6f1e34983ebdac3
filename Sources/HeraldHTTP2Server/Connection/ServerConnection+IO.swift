import CNGHTTP2
import COpenSSL
import Glibc

/// Socket and TLS I/O: read → `nghttp2_session_mem_recv`, `nghttp2_session_mem_send` → write.
extension ServerConnection {
    /// What the loop should do with the connection after an I/O step.
    enum IOResult {
        case open
        case closed(reason: String)
    }

    /// Handles a readable socket: finishes the handshake, then reads until the socket would block.
    func handleReadable(buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        if !handshakeComplete {
            if case .closed(let reason) = continueHandshake() { return .closed(reason: reason) }
            guard handshakeComplete else { return .open }
        }
        guard let session, let base = buffer.baseAddress else { return .closed(reason: "no session") }
        // Bounded so one busy connection cannot starve the others; epoll is level-triggered.
        for _ in 0..<32 {
            let count: Int
            if let ssl {
                OpenSSLErrors.clear()
                let n = SSL_read(ssl, base, Int32(buffer.count))
                if n <= 0 {
                    switch SSL_get_error(ssl, n) {
                    case SSL_ERROR_WANT_READ: return .open
                    case SSL_ERROR_WANT_WRITE: writeInterest = true; return .open
                    case SSL_ERROR_ZERO_RETURN: return .closed(reason: "peer closed TLS")
                    default: return .closed(reason: "TLS read failed: \(OpenSSLErrors.drain())")
                    }
                }
                count = Int(n)
            } else {
                let n = Glibc.read(fd, base, buffer.count)
                if n < 0 {
                    if errno == EAGAIN || errno == EINTR { return .open }
                    return .closed(reason: "read failed")
                }
                if n == 0 { return .closed(reason: "peer closed") }
                count = n
            }
            let consumed = nghttp2_session_mem_recv(
                session, base.assumingMemoryBound(to: UInt8.self), count)
            if consumed < 0 { return .closed(reason: "HTTP/2 protocol error") }
        }
        return .open
    }

    /// Whether TLS has read bytes from the socket that it has not returned yet
    /// (read-ahead): epoll cannot see them, so the loop reads again by itself.
    var hasBufferedInput: Bool {
        guard let ssl, handshakeComplete else { return false }
        return SSL_has_pending(ssl) == 1
    }

    /// Handles a writable socket: continues the handshake or flushes pending output.
    func handleWritable() -> IOResult {
        if !handshakeComplete { return continueHandshake() }
        return flush()
    }

    private func continueHandshake() -> IOResult {
        guard let ssl else { handshakeComplete = true; return .open }
        OpenSSLErrors.clear()
        let rv = SSL_do_handshake(ssl)
        if rv == 1 {
            handshakeComplete = true
            peerCertificate = PeerCertificateReader.read(from: ssl)
            // What decoding the certificate's fields left in the queue is no call's failure.
            OpenSSLErrors.clear()
            return .open
        }
        switch SSL_get_error(ssl, rv) {
        case SSL_ERROR_WANT_READ: return .open
        case SSL_ERROR_WANT_WRITE: writeInterest = true; return .open
        default: return .closed(reason: "TLS handshake failed: \(OpenSSLErrors.drain())")
        }
    }

    /// Moves nghttp2's pending frames into the output buffer and writes as much as the socket takes.
    func flush() -> IOResult {
        guard handshakeComplete, let session else { return .open }
        while true {
            if outputOffset >= output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
                while output.count < 64 * 1024 {
                    var data: UnsafePointer<UInt8>?
                    let n = nghttp2_session_mem_send(session, &data)
                    if n < 0 { return .closed(reason: "nghttp2 send failed") }
                    guard n > 0, let data else { break }
                    output.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
                }
                if output.isEmpty { break }
            }
            let remaining = output.count - outputOffset
            var failure = ""
            let written: Int = output.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return -1 }
                let start = base + outputOffset
                if let ssl {
                    OpenSSLErrors.clear()
                    let n = SSL_write(ssl, start, Int32(min(remaining, Int(Int32.max))))
                    if n > 0 { return Int(n) }
                    switch SSL_get_error(ssl, n) {
                    case SSL_ERROR_WANT_WRITE: return 0
                    // TLS must read first (a key update): the next readable event flushes again.
                    case SSL_ERROR_WANT_READ: return -2
                    default:
                        failure = "TLS write failed: \(OpenSSLErrors.drain())"
                        return -1
                    }
                }
                let n = Glibc.write(fd, start, remaining)
                if n >= 0 { return n }
                if errno == EAGAIN || errno == EINTR { return 0 }
                failure = "write failed: \(String(cString: strerror(errno)))"
                return -1
            }
            if written == -2 {
                writeInterest = false
                return .open
            }
            if written < 0 { return .closed(reason: failure) }
            if written == 0 {
                writeInterest = true
                return .open
            }
            outputOffset += written
        }
        writeInterest = false
        return isFinished ? .closed(reason: "session finished") : .open
    }
}
