import CNGHTTP2
import COpenSSL
import Glibc

/// Socket and TLS I/O: bytes read go to the connection's protocol
/// (`receive`); what it has to send is gathered into one buffer and written.
///
/// Every OpenSSL call here starts from an emptied error queue and, when it
/// fails, drains the queue into this connection's close reason
/// (`OpenSSLErrors`): the queue is per thread, shared by every connection.
extension ServerConnection {
    /// What the loop should do with the connection after an I/O step.
    enum IOResult {
        case open
        case closed(reason: String)
    }

    /// Bytes a lingering connection drops before it gives up on the client's close.
    static let lingerBudget = 1 << 20

    /// Handles a readable socket: finishes the handshake, then reads until the
    /// socket would block (or the protocol stops wanting input).
    func handleReadable(buffer: UnsafeMutableRawBufferPointer, hangup: Bool) -> IOResult {
        lastActivityAt = MonotonicClock.nanoseconds()
        if !handshakeComplete {
            if case .closed(let reason) = continueHandshake() { return .closed(reason: reason) }
            guard handshakeComplete else { return .open }
        }
        if isLingering { return discardInput(buffer: buffer) }
        guard let base = buffer.baseAddress else { return .closed(reason: "no read buffer") }
        // Bounded so one busy connection cannot starve the others; epoll is level-triggered.
        for _ in 0..<32 {
            // An HTTP/1.1 request is with the handler: the socket is not read, but a hang-up still ends it.
            guard wantsRead else { return hangup ? .closed(reason: "peer hung up") : .open }
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
                    return .closed(reason: "read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 { return .closed(reason: "peer closed") }
                count = n
            }
            if case .closed(let reason) = receive(UnsafeRawBufferPointer(start: base, count: count)) {
                return .closed(reason: reason)
            }
        }
        return .open
    }

    /// Reads and drops what a client sends after the server's last answer,
    /// until it closes, errs, or has sent `lingerBudget` bytes.
    private func discardInput(buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n == 0 { return .closed(reason: "closed after the last answer") }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { return .open }
                return .closed(reason: "closed after the last answer (\(String(cString: strerror(errno))))")
            }
            lingerDiscarded += n
            if lingerDiscarded > Self.lingerBudget { return .closed(reason: "closed after the last answer (input dropped)") }
        }
    }

    /// Whether TLS has read bytes from the socket that it has not returned yet
    /// (read-ahead): epoll cannot see them, so the loop reads again by itself.
    var hasBufferedInput: Bool {
        guard let ssl, handshakeComplete, !isLingering else { return false }
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
            return selectProtocolAfterHandshake()
        }
        switch SSL_get_error(ssl, rv) {
        case SSL_ERROR_WANT_READ: return .open
        case SSL_ERROR_WANT_WRITE: writeInterest = true; return .open
        default: return .closed(reason: "TLS handshake failed: \(OpenSSLErrors.drain())")
        }
    }

    /// Moves what the protocol has to send into the output buffer and writes
    /// as much as the socket takes; once a connection has nothing left to do,
    /// closes it (HTTP/2) or starts lingering (HTTP/1.1).
    func flush() -> IOResult {
        guard handshakeComplete, !isLingering else { return .open }
        while true {
            if outputOffset >= output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
            }
            if http1 != nil {
                writeHTTP1Answer()
            } else if let session, outputOffset >= output.count {
                while output.count < 64 * 1024 {
                    var data: UnsafePointer<UInt8>?
                    let n = nghttp2_session_mem_send(session, &data)
                    if n < 0 { return .closed(reason: "nghttp2 send failed: \(String(cString: nghttp2_strerror(Int32(n))))") }
                    guard n > 0, let data else { break }
                    output.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
                }
            }
            if outputOffset >= output.count { break }
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
        guard isFinished else { return .open }
        if http1 != nil {
            beginLingering()
            return .open
        }
        return .closed(reason: "session finished")
    }
}
