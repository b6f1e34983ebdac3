import CNGHTTP2
import COpenSSL
import Glibc
import HeraldSystem
import HeraldTLS

/// Socket and TLS I/O: bytes read go to the connection's protocol
/// (`receive`); what it has to send is gathered into one buffer and written.
///
/// Every OpenSSL call here starts from an emptied error queue and, when it
/// fails, drains the queue into this connection's close reason
/// (`OpenSSLErrorQueue`): the queue is per thread, shared by every connection.
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
        lastActivityAt = MonotonicClock.now()
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
                OpenSSLErrorQueue.clear()
                let n = SSL_read(ssl, base, Int32(buffer.count))
                if n <= 0 {
                    switch SSL_get_error(ssl, n) {
                    case SSL_ERROR_WANT_READ: return .open
                    case SSL_ERROR_WANT_WRITE: writeInterest = true; return .open
                    case SSL_ERROR_ZERO_RETURN: return .closed(reason: "peer closed TLS")
                    default: return .closed(reason: "TLS read failed: \(OpenSSLErrorQueue.drain())")
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
            if lingerDiscarded > Self.lingerBudget {
                return .closed(reason: "closed after the last answer (input dropped)")
            }
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
        OpenSSLErrorQueue.clear()
        let rv = SSL_do_handshake(ssl)
        if rv == 1 {
            handshakeComplete = true
            peerCertificate = PeerCertificateReader.read(from: ssl)
            // What decoding the certificate's fields left in the queue is no call's failure.
            OpenSSLErrorQueue.clear()
            return selectProtocolAfterHandshake()
        }
        switch SSL_get_error(ssl, rv) {
        case SSL_ERROR_WANT_READ: return .open
        case SSL_ERROR_WANT_WRITE: writeInterest = true; return .open
        default: return .closed(reason: "TLS handshake failed: \(OpenSSLErrorQueue.drain())")
        }
    }

    /// Moves what the protocol has to send into the output buffer and writes
    /// as much as the socket takes; once a connection has nothing left to do,
    /// closes it (HTTP/2) or starts lingering (HTTP/1.1).
    func flush() -> IOResult {
        guard handshakeComplete, !isLingering else { return .open }
        while true {
            output.rewind()
            if http1 != nil {
                writeHTTP1Answer()
            } else if let session, output.isEmpty, let code = output.takeFrames(from: session) {
                return .closed(reason: "nghttp2 send failed: \(NGHTTP2Failure.text(code))")
            }
            if output.isEmpty { break }
            switch output.write(fd: fd, ssl: ssl) {
            case .wrote:
                continue
            case .wouldBlock:
                writeInterest = true
                return .open
            case .needsRead:
                // TLS must read first (a key update): the next readable event flushes again.
                writeInterest = false
                return .open
            case .closed(let reason), .failed(let reason):
                return .closed(reason: reason)
            }
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
