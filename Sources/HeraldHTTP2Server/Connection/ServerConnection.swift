import CNGHTTP2
import COpenSSL
import Glibc

/// One accepted TCP connection: its socket, its `SSL` (nil for h2c), its
/// nghttp2 server session, and the streams in flight on it.
///
/// Owned and touched only by the event loop's thread. `close()` frees the
/// session, the `SSL` and the socket; `deinit` calls it as a backstop.
final class ServerConnection {
    let id: UInt64
    let fd: Int32
    let ssl: OpaquePointer?
    private(set) var session: OpaquePointer?
    unowned let loop: ServerEventLoop

    var handshakeComplete: Bool
    var streams: [Int32: RequestStream] = [:]
    var peerCertificate: HTTP2PeerCertificate?
    /// Request streams handed to the handler (or refused) on this connection.
    var requestCount = 0
    /// Set once GOAWAY is submitted: streams above it are refused.
    var goAwayLastStreamID: Int32?
    /// RST_STREAM frames the peer sent (diagnostics).
    var resetsReceived = 0
    /// The error code of the GOAWAY nghttp2 sent, if any (diagnostics).
    var goAwaySentCode: UInt32?

    var output: [UInt8] = []
    var outputOffset = 0
    /// Whether the socket has output the kernel would not take yet.
    var writeInterest = false
    /// Whether EPOLLOUT is currently registered for the socket.
    var registeredWritable = false
    /// Whether the connection is in the loop's to-flush list.
    var isDirty = false
    private(set) var isClosed = false

    init(id: UInt64, fd: Int32, ssl: OpaquePointer?, loop: ServerEventLoop) {
        self.id = id
        self.fd = fd
        self.ssl = ssl
        self.loop = loop
        handshakeComplete = ssl == nil
        output.reserveCapacity(64 * 1024)
    }

    deinit { close(abort: false) }

    static func from(_ userData: UnsafeMutableRawPointer) -> ServerConnection {
        Unmanaged<ServerConnection>.fromOpaque(userData).takeUnretainedValue()
    }

    /// Creates the nghttp2 server session and queues our SETTINGS.
    func startSession(callbacks: SessionCallbacks, maxConcurrentStreams: Int) throws(HTTP2ServerError) {
        var created: OpaquePointer?
        let rv = nghttp2_session_server_new2(&created, callbacks.callbacks, Unmanaged.passUnretained(self).toOpaque(), callbacks.option)
        guard rv == 0, let created else {
            throw .nghttp2(call: "nghttp2_session_server_new2", code: rv, message: String(cString: nghttp2_strerror(rv)))
        }
        session = created
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: UInt32(maxConcurrentStreams)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        let submitted = nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        guard submitted == 0 else {
            throw .nghttp2(call: "nghttp2_submit_settings", code: submitted, message: String(cString: nghttp2_strerror(submitted)))
        }
        _ = nghttp2_session_set_local_window_size(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 16 << 20)
    }

    /// Frees everything; with `abort`, the kernel sends RST instead of FIN (a crashed server).
    func close(abort: Bool) {
        guard !isClosed else { return }
        isClosed = true
        if let session { nghttp2_session_del(session) }
        session = nil
        streams.removeAll()
        if abort {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        } else if let ssl, handshakeComplete {
            _ = SSL_shutdown(ssl)
            // A peer already gone makes SSL_shutdown queue an error on this (the loop's)
            // thread; left there, it would make SSL_get_error misreport the next
            // SSL_read of another connection as a failure and drop that connection.
            ERR_clear_error()
        }
        if let ssl { SSL_free(ssl) }
        Glibc.close(fd)
    }

    /// True when nghttp2 has nothing left to read or write and our buffer is empty.
    var isFinished: Bool {
        guard let session else { return true }
        guard outputOffset >= output.count else { return false }
        return nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
    }
}
