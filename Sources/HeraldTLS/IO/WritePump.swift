import CNGHTTP2
import COpenSSL
import Glibc

/// What one non-blocking write did.
public enum SocketWriteResult: Equatable, Sendable {
    /// The socket (or TLS) took this many bytes, at least one; fewer than
    /// offered is a partial write.
    case wrote(Int)
    /// The kernel's send buffer is full: write again once the socket is writable.
    case wouldBlock
    /// TLS must read before it can write (a key update): write again after the next read.
    case needsRead
    /// The peer is gone (it closed or reset the connection): what happened, as text.
    case closed(String)
    /// Any other failure, as text.
    case failed(String)
}

/// The bytes a connection has yet to send, and the one way they are written:
/// filled from nghttp2's pending frames (or by a protocol writer), written to
/// a TLS session or a plain socket without blocking.
///
/// A peer that has gone never raises SIGPIPE through a plain socket (`send`
/// with `MSG_NOSIGNAL`). OpenSSL's socket BIO writes with `write(2)`, so a TLS
/// write relies on the calling thread blocking SIGPIPE (`BrokenPipe`), as the
/// client's and the server's loop threads do. Owned by one loop thread.
public struct WritePump {
    /// What is to be sent; bytes before `offset` are already written.
    public var bytes: [UInt8] = []
    /// How much of `bytes` is written.
    public private(set) var offset = 0

    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Whether everything in `bytes` is written.
    public var isEmpty: Bool { offset >= bytes.count }

    /// Once everything is written, starts the buffer again from its beginning (keeping its storage).
    public mutating func rewind() {
        guard isEmpty else { return }
        bytes.removeAll(keepingCapacity: true)
        offset = 0
    }

    /// Appends the frames nghttp2 has to send, until about `limit` bytes are
    /// pending or it has none left. Returns nghttp2's error code if it failed.
    public mutating func takeFrames(from session: OpaquePointer, limit: Int = 64 * 1024) -> Int32? {
        while bytes.count - offset < limit {
            var data: UnsafePointer<UInt8>?
            let n = nghttp2_session_mem_send(session, &data)
            if n < 0 { return Int32(clamping: n) }
            guard n > 0, let data else { break }
            bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
        }
        return nil
    }

    /// Writes what is pending once (over `ssl` when given, else to `fd`), and
    /// moves past what was taken.
    public mutating func write(fd: Int32, ssl: OpaquePointer?) -> SocketWriteResult {
        guard !isEmpty else { return .wrote(0) }
        let offset = offset
        let result = bytes.withUnsafeBytes { raw in
            Self.write(UnsafeRawBufferPointer(rebasing: raw[offset...]), fd: fd, ssl: ssl)
        }
        if case .wrote(let count) = result { self.offset += count }
        return result
    }

    /// One non-blocking write of `buffer` (over `ssl` when given, else to `fd`).
    public static func write(_ buffer: UnsafeRawBufferPointer, fd: Int32, ssl: OpaquePointer?) -> SocketWriteResult {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .wrote(0) }
        if let ssl {
            OpenSSLErrorQueue.clear()
            let n = SSL_write(ssl, base, Int32(min(buffer.count, Int(Int32.max))))
            if n > 0 { return .wrote(Int(n)) }
            let error = SSL_get_error(ssl, n)
            let code = errno
            switch error {
            case SSL_ERROR_WANT_WRITE: return .wouldBlock
            case SSL_ERROR_WANT_READ: return .needsRead
            case SSL_ERROR_ZERO_RETURN: return .closed("TLS write failed: \(OpenSSLErrorQueue.drain())")
            case SSL_ERROR_SYSCALL where code == EPIPE || code == ECONNRESET:
                return .closed("TLS write failed: \(OpenSSLErrorQueue.drain())")
            default: return .failed("TLS write failed: \(OpenSSLErrorQueue.drain())")
            }
        }
        while true {
            let n = send(fd, base, buffer.count, Int32(MSG_NOSIGNAL))
            if n > 0 { return .wrote(n) }
            if n == 0 { return .wouldBlock }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EPIPE, ECONNRESET: return .closed("write failed: \(String(cString: strerror(errno)))")
            default: return .failed("write failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}
