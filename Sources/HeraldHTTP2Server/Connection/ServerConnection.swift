import CNGHTTP2
import COpenSSL
import Glibc
import HeraldSystem
import HeraldTLS

/// One accepted TCP connection: its socket, its `SSL` (nil for cleartext),
/// the protocol it speaks — an nghttp2 server session for HTTP/2, an
/// `HTTP1Exchange` for HTTP/1.1 — and what is in flight on it.
///
/// Owned and touched only by the event loop's thread. `close()` frees the
/// session, the `SSL` and the socket; `deinit` calls it as a backstop.
final class ServerConnection {
    /// What an HTTP/2 client sends first (RFC 9113 §3.4); anything else is taken for HTTP/1.1.
    static let http2Preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    let id: UInt64
    let fd: Int32
    let ssl: OpaquePointer?
    private(set) var session: OpaquePointer?
    /// Set once the connection turns out to speak HTTP/1.1.
    private(set) var http1: HTTP1Exchange?
    unowned let loop: ServerEventLoop

    var handshakeComplete: Bool
    /// Bytes that came before the protocol was known (cleartext, or TLS without ALPN).
    var sniffed: [UInt8] = []
    var streams: [Int32: RequestStream] = [:]
    var peerCertificate: HTTP2PeerCertificate?
    /// Requests handed to the handler (or refused) on this connection.
    var requestCount = 0
    /// Set once GOAWAY is submitted: streams above it are refused.
    var goAwayLastStreamID: Int32?
    /// The SETTINGS_MAX_CONCURRENT_STREAMS last submitted (HTTP/2).
    var advertisedMaxConcurrentStreams: Int?
    /// RST_STREAM frames the peer sent (diagnostics).
    var resetsReceived = 0
    /// The error code of the GOAWAY nghttp2 sent, if any (diagnostics).
    var goAwaySentCode: UInt32?
    /// Resets of streams the server had not answered yet (`rapidResetLimit`).
    var resetBudget: ResetBudget
    /// RST_STREAM frames the peer sent for streams not answered yet (diagnostics).
    var unansweredResetsReceived = 0
    /// When the connection last received bytes or finished its last stream
    /// or request (MonotonicClock): the start of its idleness (`idleTimeout`).
    var lastActivityAt: UInt64
    /// By when the TLS handshake and the HTTP/2 client preface or the
    /// current HTTP/1.1 request head must be complete (`headerTimeout`); nil
    /// while nothing is awaited.
    var headerDeadline: UInt64?
    /// By when a connection that was sent its last frame (idle GOAWAY, rapid
    /// reset) must be closed, whether or not the client took it.
    var closeDeadline: UInt64?
    /// The deadline of the one pending `.checkDeadlines` timer of this connection, if any.
    var scheduledCheckAt: UInt64?

    var output = WritePump(capacity: 64 * 1024)
    /// Whether the socket has output the kernel would not take yet.
    var writeInterest = false
    /// Whether EPOLLOUT is currently registered for the socket.
    var registeredWritable = false
    /// Whether EPOLLIN is currently registered (off while an HTTP/1.1 request is with the handler).
    var registeredReadable = true
    /// Whether the connection is in the loop's to-flush list.
    var isDirty = false
    /// The server has sent its last bytes and shut its side; it reads and
    /// drops what the client still sends until the client closes (or the
    /// loop's timer gives up), so the client reads the last answer instead
    /// of a reset.
    private(set) var isLingering = false
    /// Bytes dropped while lingering (bounded).
    var lingerDiscarded = 0
    private var tlsShutdownSent = false
    private(set) var isClosed = false

    init(id: UInt64, fd: Int32, ssl: OpaquePointer?, loop: ServerEventLoop, now: UInt64) {
        self.id = id
        self.fd = fd
        self.ssl = ssl
        self.loop = loop
        handshakeComplete = ssl == nil
        resetBudget = ResetBudget(loop.configuration.rapidResetLimit, now: now)
        lastActivityAt = now
        headerDeadline = MonotonicClock.deadline(after: loop.configuration.headerTimeout, from: now)
    }

    deinit { close(abort: false) }

    static func from(_ userData: UnsafeMutableRawPointer) -> ServerConnection {
        NGHTTP2SessionSetup.owner(userData)
    }

    /// Whether the protocol is known yet.
    var isUndecided: Bool { session == nil && http1 == nil }

    /// Whether the socket should be read now: not while an HTTP/1.1 request
    /// is with the handler or its last answer is going out (what the client
    /// sends meanwhile waits in the kernel).
    var wantsRead: Bool {
        if isLingering { return true }
        guard let http1 else { return true }
        return http1.isReading
    }

    // MARK: Choosing the protocol

    /// After the TLS handshake: ALPN's choice, if the client offered ALPN; otherwise the first bytes decide.
    func selectProtocolAfterHandshake() -> IOResult {
        guard let ssl else { return .open }
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        guard let selected, length > 0 else { return .open }
        let name = String(decoding: UnsafeBufferPointer(start: selected, count: Int(length)), as: UTF8.self)
        return name == "h2" ? startHTTP2() : startHTTP1()
    }

    /// Takes bytes that arrived before the protocol was known: the HTTP/2
    /// preface means HTTP/2, anything that cannot begin it means HTTP/1.1.
    func receiveUndecided(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        sniffed.append(contentsOf: bytes)
        let compared = min(sniffed.count, Self.http2Preface.count)
        let isPreface = sniffed.prefix(compared).elementsEqual(Self.http2Preface.prefix(compared))
        if isPreface, sniffed.count < Self.http2Preface.count { return .open }
        let started = isPreface ? startHTTP2() : startHTTP1()
        if case .closed = started { return started }
        let early = sniffed
        sniffed = []
        return early.withUnsafeBytes { receive($0) }
    }

    /// Hands bytes read from the socket to the connection's protocol.
    func receive(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        if let session {
            guard let base = bytes.baseAddress else { return .open }
            let consumed = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
            if consumed < 0 { return .closed(reason: "HTTP/2 protocol error: \(NGHTTP2Failure.text(Int32(consumed)))") }
            return .open
        }
        if http1 != nil { return receiveHTTP1(bytes) }
        return receiveUndecided(bytes)
    }

    private func startHTTP1() -> IOResult {
        http1 = HTTP1Exchange(
            maxHeaderBytes: loop.configuration.maxRequestHeaderBytes,
            maxBodyBytes: loop.configuration.maxRequestBodyBytes)
        return .open
    }

    /// Creates the nghttp2 server session and queues our SETTINGS, with the
    /// stream limit the handler chooses for this connection and the header
    /// list limit (`maxHeaderListBytes`; the HPACK table stays at 4096).
    private func startHTTP2() -> IOResult {
        var created: OpaquePointer?
        let callbacks = loop.callbacks
        let rv = nghttp2_session_server_new2(
            &created, callbacks.callbacks, Unmanaged.passUnretained(self).toOpaque(), callbacks.option)
        guard rv == 0, let created else {
            return .closed(reason: "nghttp2_session_server_new2 failed: \(NGHTTP2Failure.text(rv))")
        }
        session = created
        let limit = loop.handler.maxConcurrentStreams(forNewConnection: id) ?? loop.configuration.maxConcurrentStreams
        advertisedMaxConcurrentStreams = limit
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: UInt32(clamping: max(0, limit))),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(clamping: max(0, loop.configuration.maxHeaderListBytes))),
        ]
        let submitted = nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        guard submitted == 0 else {
            return .closed(reason: "nghttp2_submit_settings failed: \(NGHTTP2Failure.text(submitted))")
        }
        _ = nghttp2_session_set_local_window_size(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 16 << 20)
        return .open
    }

    // MARK: Closing

    /// The server's last bytes are written: sends close_notify, shuts the
    /// write side and starts dropping input until the client closes.
    func beginLingering() {
        guard !isLingering else { return }
        isLingering = true
        sendTLSShutdown()
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        loop.scheduleLingerTimeout(for: self)
    }

    /// close_notify, once. To a peer already gone it fails and queues errors
    /// that are nobody's business: the queue is emptied before and after.
    private func sendTLSShutdown() {
        guard let ssl, handshakeComplete, !tlsShutdownSent else { return }
        tlsShutdownSent = true
        OpenSSLErrorQueue.clear()
        _ = SSL_shutdown(ssl)
        OpenSSLErrorQueue.clear()
    }

    /// Frees everything; with `abort`, the kernel sends RST instead of FIN (a crashed server).
    func close(abort: Bool) {
        guard !isClosed else { return }
        isClosed = true
        if let session { nghttp2_session_del(session) }
        session = nil
        http1 = nil
        streams.removeAll()
        if abort {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        } else {
            sendTLSShutdown()
        }
        if let ssl { SSL_free(ssl) }
        Glibc.close(fd)
    }

    /// True when the connection has nothing left to do: nghttp2 wants neither
    /// to read nor to write (HTTP/2), or the last answer is queued (HTTP/1.1);
    /// and our buffer is written.
    var isFinished: Bool {
        guard output.isEmpty else { return false }
        if let http1 { return http1.isClosing }
        guard let session else { return false }
        return nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
    }
}
