import CHeraldShim
import CNGHTTP2
import COpenSSL
import Glibc
import HeraldSystem
import HeraldTLS

/// One HTTP/2 connection of the nghttp2 engine: its socket, its `SSL` (nil
/// for h2c), its nghttp2 client session and the streams in flight on it.
///
/// Owned and touched only by the loop thread. `close()` frees the session,
/// the `SSL` and the socket; `deinit` calls it as a backstop.
final class H2Connection {
    enum State: Equatable {
        /// Waiting for the resolver thread.
        case resolving
        /// Non-blocking `connect` in progress.
        case connecting
        /// TLS handshake in progress.
        case handshaking
        /// Streams may be submitted (unless `goAwayReceived`).
        case open
        case closed
    }

    let id: UInt64
    let origin: H2Origin
    unowned let loop: H2ClientLoop
    private(set) var state = State.resolving
    private(set) var fd: Int32 = -1
    private(set) var ssl: OpaquePointer?
    private(set) var session: OpaquePointer?
    var streams: [Int32: H2Stream] = [:]
    /// Addresses from the resolver, tried in turn; `lastConnectError` says why the last failed.
    private var addresses: [H2Address] = []
    private var addressIndex = 0
    private var lastConnectError = ""
    /// Resolving, connecting and the handshake must be done by then (monotonic ns).
    let connectDeadline: UInt64
    /// Last time a stream was submitted or finished (monotonic ns), for idle age and PING.
    var lastActivity: UInt64
    /// When the keep-alive PING still unanswered was sent (monotonic ns).
    var pingSentAt: UInt64?
    /// When the last keep-alive PING was sent (monotonic ns; 0 before the first).
    var lastPingAt: UInt64 = 0
    /// The server's first SETTINGS frame has arrived: until then its stream
    /// limit is unknown, and streams beyond it would be refused.
    var settingsReceived = false
    /// A stream of this connection has ended (answered, reset or refused).
    /// Until then the server's stream limit may still rise: APNs allows one
    /// stream until a provider token is accepted, Google one until its first
    /// answer. Its origin learns the limit it reached then.
    var firstStreamEnded = false
    /// The server sent GOAWAY: no new streams here; the connection closes when its streams end.
    var goAwayReceived = false
    /// Submitted frames wait in nghttp2 until the loop flushes the connection.
    var needsFlush = false
    /// Whether EPOLLOUT is registered (output the kernel would not take yet, or a connect in progress).
    var wantsWritable = false
    /// Whether EPOLLOUT is what epoll currently watches for (the loop keeps it in step with `wantsWritable`).
    var registeredWritable = false
    /// The socket epoll watches for this connection (-1: none yet).
    var watchedFD: Int32 = -1
    /// What is still to be written to the socket.
    private var output = WritePump(capacity: 16 * 1024)

    init(id: UInt64, origin: H2Origin, loop: H2ClientLoop, now: UInt64, connectTimeout: UInt64) {
        self.id = id
        self.origin = origin
        self.loop = loop
        connectDeadline = MonotonicClock.later(now, by: connectTimeout)
        lastActivity = now
    }

    deinit { close() }

    static func from(_ userData: UnsafeMutableRawPointer) -> H2Connection {
        NGHTTP2SessionSetup.owner(userData)
    }

    /// Streams this connection may carry at once: ours and the server's limit, whichever is lower.
    func streamLimit(_ limit: Int) -> Int {
        guard let session else { return 0 }
        return min(limit, Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)))
    }

    /// Streams this connection may take now.
    func capacity(limit: Int) -> Int {
        guard state == .open, settingsReceived, !goAwayReceived else { return 0 }
        return max(0, streamLimit(limit) - streams.count)
    }

    // MARK: Connecting

    /// Starts a non-blocking connect to the next resolved address; on a
    /// synchronous failure tries the next. Returns the last error when none is left.
    func connectNext(_ resolved: [H2Address]? = nil) -> String? {
        if let resolved {
            addresses = resolved
            addressIndex = 0
        }
        while addressIndex < addresses.count {
            let address = addresses[addressIndex]
            addressIndex += 1
            if fd >= 0 { Glibc.close(fd); fd = -1 }
            let socketFD = socket(
                address.family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socketFD >= 0 else {
                lastConnectError = String(cString: strerror(errno))
                continue
            }
            fd = socketFD
            _ = herald_tcp_push(socketFD)
            let rc = address.storage.withUnsafeBytes { raw in
                Glibc.connect(socketFD, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            if rc == 0 || errno == EINPROGRESS {
                state = .connecting
                wantsWritable = true
                return nil
            }
            lastConnectError = "\(address.text): \(String(cString: strerror(errno)))"
        }
        if fd >= 0 { Glibc.close(fd); fd = -1 }
        return lastConnectError.isEmpty ? "no address to connect to" : lastConnectError
    }

    /// The socket became writable while connecting: finished, or failed (then the next address).
    /// Returns the error when no address is left, or when the certificate
    /// check cannot be set up (then nothing is sent on the connection).
    func finishConnect(tls: H2TLSContext?, keepAliveSeconds: Int32) -> HTTPClientError? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        if error != 0 {
            let address = addressIndex > 0 ? addresses[addressIndex - 1].text : origin.url.host
            lastConnectError = "\(address): \(String(cString: strerror(error)))"
            return connectNext().map {
                HTTPClientError(kind: .connectFailed, host: origin.hostAndPort, message: "could not connect: \($0)")
            }
        }
        _ = herald_tcp_keepalive(fd, keepAliveSeconds)
        guard let tls else {
            state = .handshaking
            return nil
        }
        guard let ssl = SSL_new(tls.context) else {
            return HTTPClientError(
                kind: .other, host: origin.hostAndPort, message: "SSL_new failed: \(OpenSSLErrorQueue.drain())")
        }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        if let refusal = Self.expectPeer(origin.url, on: ssl) {
            return HTTPClientError(
                kind: .invalidRequest, host: origin.hostAndPort,
                message:
                    "cannot check the server's certificate against host '\(origin.url.host)' (\(refusal)); nothing was sent"
            )
        }
        SSL_set_connect_state(ssl)
        state = .handshaking
        return nil
    }

    /// Tells OpenSSL which identity the server's certificate must prove: the
    /// IP address of an address literal, else the name (and SNI). Returns
    /// what OpenSSL refused, if anything: the handshake must then not start,
    /// since OpenSSL would verify the chain but check no host at all.
    static func expectPeer(_ url: H2URL, on ssl: OpaquePointer) -> String? {
        OpenSSLErrorQueue.clear()
        if url.hostIsAddress {
            guard let parameters = SSL_get0_param(ssl), X509_VERIFY_PARAM_set1_ip_asc(parameters, url.host) == 1 else {
                return "not an IP address OpenSSL can check: \(OpenSSLErrorQueue.drain())"
            }
            return nil
        }
        guard herald_ssl_set_tlsext_host_name(ssl, url.host) == 1 else {
            return "not a name for SNI: \(OpenSSLErrorQueue.drain())"
        }
        guard SSL_set1_host(ssl, url.host) == 1 else {
            return "not a host name OpenSSL can check: \(OpenSSLErrorQueue.drain())"
        }
        return nil
    }

    /// Where the handshake stands after a step.
    enum HandshakeStep { case waiting, done, failed(HTTPClientError) }

    /// Drives the TLS handshake (or, for h2c, nothing): `.done` once it is
    /// complete and ALPN chose h2, `.failed` with the error, `.waiting` while
    /// it needs more I/O.
    func continueHandshake() -> HandshakeStep {
        guard let ssl else { return .done }
        OpenSSLErrorQueue.clear()
        let rv = SSL_do_handshake(ssl)
        if rv == 1 {
            let alpn = ALPN.negotiatedH2(ssl)
            guard alpn.isH2 else {
                return .failed(HTTPClientError.http2Unavailable(host: origin.hostAndPort, selected: alpn.selected))
            }
            wantsWritable = false
            return .done
        }
        switch SSL_get_error(ssl, rv) {
        case SSL_ERROR_WANT_READ:
            wantsWritable = false
            return .waiting
        case SSL_ERROR_WANT_WRITE:
            wantsWritable = true
            return .waiting
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                OpenSSLErrorQueue.clear()
                return .failed(
                    HTTPClientError(
                        kind: .certificateRejected, host: origin.hostAndPort,
                        message:
                            "the server's certificate was rejected: \(String(cString: X509_verify_cert_error_string(verify)))"
                    ))
            }
            let detail = OpenSSLErrorQueue.drain()
            return .failed(
                HTTPClientError(
                    kind: .tlsHandshakeFailed, host: origin.hostAndPort, message: "TLS handshake failed: \(detail)"))
        }
    }

    /// Creates the nghttp2 client session and queues the connection preface and our SETTINGS.
    func startSession(callbacks: H2SessionCallbacks, now: UInt64) -> HTTPClientError? {
        var created: OpaquePointer?
        let rv = nghttp2_session_client_new2(
            &created, callbacks.callbacks, Unmanaged.passUnretained(self).toOpaque(), callbacks.option)
        guard rv == 0, let created else {
            let failure = NGHTTP2Failure(call: "nghttp2_session_client_new2", code: rv)
            return HTTPClientError(kind: .other, host: origin.hostAndPort, message: "\(failure)")
        }
        session = created
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        _ = nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        _ = nghttp2_session_set_local_window_size(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 16 << 20)
        state = .open
        lastActivity = now
        needsFlush = true
        return nil
    }

    // MARK: Reading and writing

    enum IOResult: Equatable {
        case open
        case closed(String)
    }

    /// Reads until the socket would block, feeding nghttp2 (whose callbacks finish streams).
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        guard let session, let base = buffer.baseAddress else { return .closed("no session") }
        needsFlush = true
        while true {
            let count: Int
            if let ssl {
                OpenSSLErrorQueue.clear()
                let n = SSL_read(ssl, base, Int32(buffer.count))
                if n <= 0 {
                    switch SSL_get_error(ssl, n) {
                    case SSL_ERROR_WANT_READ: return .open
                    case SSL_ERROR_WANT_WRITE: wantsWritable = true; return .open
                    case SSL_ERROR_ZERO_RETURN: return .closed("the server closed the connection")
                    case SSL_ERROR_SYSCALL where n == 0: return .closed("the server closed the connection")
                    default: return .closed("TLS read failed: \(OpenSSLErrorQueue.drain())")
                    }
                }
                count = Int(n)
            } else {
                let n = Glibc.read(fd, base, buffer.count)
                if n < 0 {
                    if errno == EAGAIN || errno == EINTR { return .open }
                    return .closed("read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 { return .closed("the server closed the connection") }
                count = n
            }
            let consumed = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), count)
            if consumed < 0 { return .closed("HTTP/2 protocol error: \(NGHTTP2Failure.text(Int32(consumed)))") }
            if state == .closed { return .closed("connection closed") }
        }
    }

    /// Moves nghttp2's pending frames into the output buffer and writes as much as the socket takes.
    func flush() -> IOResult {
        needsFlush = false
        guard state == .open, let session else { return .open }
        while true {
            if output.isEmpty {
                output.rewind()
                if let code = output.takeFrames(from: session) {
                    return .closed("HTTP/2 send failed: \(NGHTTP2Failure.text(code))")
                }
                if output.isEmpty { break }
            }
            switch output.write(fd: fd, ssl: ssl) {
            case .wrote:
                continue
            case .wouldBlock:
                wantsWritable = true
                return .open
            case .needsRead:
                // TLS needs to read first (e.g. a renegotiation): the next read sets needsFlush.
                wantsWritable = false
                return .open
            case .closed, .failed:
                return .closed("write failed")
            }
        }
        wantsWritable = false
        return .open
    }

    /// Whether nothing is left to send and no stream is open (a GOAWAY'd connection may then close).
    var isIdle: Bool { streams.isEmpty && output.isEmpty }

    /// Frees the session, the `SSL` and the socket. Streams are the loop's to fail first.
    func close() {
        state = .closed
        if let session { nghttp2_session_del(session) }
        session = nil
        streams.removeAll()
        if let ssl { SSL_free(ssl) }
        ssl = nil
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
