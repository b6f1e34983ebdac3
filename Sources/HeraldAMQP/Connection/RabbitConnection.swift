import COpenSSL
import CRabbitMQ
import Glibc

/// Owns one rabbitmq-c connection (`amqp_connection_state_t`) and its socket.
///
/// rabbitmq-c is not thread-safe: an instance is created, used and destroyed on
/// the connection thread only, which is why this class is deliberately not
/// `Sendable`. Every call goes through `RabbitStatus` to become an `AMQPError`.
final class RabbitConnection {
    let state: amqp_connection_state_t
    /// Scratch memory for strings and tables handed to rabbitmq-c; recycled per call.
    let scratch = AMQPScratchPool()
    /// The heartbeat both sides agreed on, in seconds (0 = off).
    var heartbeatSeconds = 0
    /// A plain TCP socket: `publishBatch` may write frames to it directly.
    private(set) var canWriteDirectly = false
    /// The negotiated largest frame, header and end byte included.
    var frameMax: Int { Int(amqp_get_frame_max(state)) }
    /// Reused by `publishBatch` for the frames of one write.
    var batchBuffer: [UInt8] = []
    private var destroyed = false

    private init(state: amqp_connection_state_t) {
        self.state = state
    }

    deinit {
        destroy()
    }

    /// Opens the socket (TCP, or TLS with the address's own files) to `address` and performs the AMQP handshake.
    static func open(_ configuration: AMQPConfiguration, address: AMQPAddress) throws(AMQPError) -> RabbitConnection {
        guard let state = amqp_new_connection() else {
            throw AMQPError(.library, operation: "amqp_new_connection", detail: "out of memory", isRetryable: true)
        }
        let connection = RabbitConnection(state: state)
        try connection.openSocket(configuration, address: address)
        try connection.handshake(configuration, url: address.url)
        var rpcTimeout = timeval(configuration.operationTimeout)
        amqp_set_rpc_timeout(state, &rpcTimeout)
        return connection
    }

    private func openSocket(_ configuration: AMQPConfiguration, address: AMQPAddress) throws(AMQPError) {
        let url = address.url
        let socket: OpaquePointer?
        if url.tls {
            socket = amqp_ssl_socket_new(state)
            guard let socket else {
                throw AMQPError(
                    .library, operation: "amqp_ssl_socket_new", detail: "cannot create TLS socket", isRetryable: false)
            }
            let tls = address.tls
            // rabbitmq-c's context trusts nothing of its own accord: load the system
            // store (OpenSSL's default paths, which honour SSL_CERT_FILE and
            // SSL_CERT_DIR), then the configured CA file on top.
            guard let context = amqp_ssl_socket_get_context(socket),
                SSL_CTX_set_default_verify_paths(OpaquePointer(context)) == 1
            else {
                throw AMQPError(
                    .library, operation: "TLS trust store", detail: "cannot load the system trust store",
                    isRetryable: false)
            }
            if let ca = tls.caFile {
                try RabbitStatus.check(.code(amqp_ssl_socket_set_cacert(socket, ca)), operation: "TLS CA file \(ca)")
            }
            if let cert = tls.certificateFile, let key = tls.keyFile {
                try RabbitStatus.check(
                    .code(amqp_ssl_socket_set_key(socket, cert, key)), operation: "TLS client certificate \(cert)")
            }
            amqp_ssl_socket_set_verify_peer(socket, 1)
            amqp_ssl_socket_set_verify_hostname(socket, 1)
        } else {
            socket = amqp_tcp_socket_new(state)
            canWriteDirectly = true
        }
        guard let socket else {
            throw AMQPError(
                .library, operation: "amqp_tcp_socket_new", detail: "cannot create socket", isRetryable: true)
        }
        var timeout = timeval(configuration.connectTimeout)
        try RabbitStatus.check(
            .code(amqp_socket_open_noblock(socket, url.host, Int32(url.port), &timeout)),
            operation: "connect \(url.host):\(url.port)")
    }

    // MARK: Frames

    enum FrameRead {
        case frame(amqp_frame_t)
        case timeout
        case failed(AMQPError)
    }

    /// Reads one frame, waiting at most `timeout` (zero: only what is already
    /// readable). Also services heartbeats: sends ours when due, and fails with
    /// a heartbeat timeout when the broker has been silent for two intervals.
    func readFrame(timeout: Duration) -> FrameRead {
        var frame = amqp_frame_t()
        var tv = timeval(timeout)
        let status = amqp_simple_wait_frame_noblock(state, &frame, &tv)
        if status == AMQP_STATUS_TIMEOUT.rawValue { return .timeout }
        if let error = RabbitStatus.error(.code(status), operation: "read frame") { return .failed(error) }
        return .frame(frame)
    }

    /// True when frames or bytes are buffered and a read will not block.
    var hasBufferedInput: Bool {
        amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0
    }

    /// Recycles the memory of frames already handled, when none are queued.
    func releaseBuffersIfIdle() {
        if amqp_frames_enqueued(state) == 0 { amqp_maybe_release_buffers(state) }
    }

    var socketFD: Int32 { amqp_get_sockfd(state) }

    func sendMethod<T>(channel: UInt16, method: amqp_method_number_t, _ body: inout T, operation: String)
        throws(AMQPError)
    {
        let status = withUnsafeMutablePointer(to: &body) { amqp_send_method(state, channel, method, $0) }
        try RabbitStatus.check(.code(status), operation: operation)
    }

    // MARK: Closing

    /// Polite close: `connection.close` and wait briefly for `close-ok`; then destroy.
    func close() {
        guard !destroyed else { return }
        var short = timeval(tv_sec: 1, tv_usec: 0)
        amqp_set_rpc_timeout(state, &short)
        _ = amqp_connection_close(state, Int32(AMQP_REPLY_SUCCESS))
        destroy()
    }

    /// Frees the connection without talking to the broker (it may be gone).
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        amqp_destroy_connection(state)
    }
}

extension timeval {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
    }
}

/// A scratch `amqp_pool_t` for encoding tables and properties; emptied in deinit.
final class AMQPScratchPool {
    let pool: UnsafeMutablePointer<amqp_pool_t>

    init(pageSize: Int = 4096) {
        pool = .allocate(capacity: 1)
        init_amqp_pool(pool, pageSize)
    }

    deinit {
        empty_amqp_pool(pool)
        pool.deallocate()
    }

    /// Forgets everything allocated so far, keeping the pages for reuse.
    func recycle() { recycle_amqp_pool(pool) }
}
