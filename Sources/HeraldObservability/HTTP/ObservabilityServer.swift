import CHeraldShim
import CMicroHTTPD
import Glibc

/// Serves `/metrics`, `/healthz` and `/readyz` on libmicrohttpd, whose worker
/// threads poll with epoll: a well-kept HTTP implementation rather than a
/// hand-written parser. Handlers only read the registry and health state.
///
/// The port is reachable by whoever can reach the instance, so `Limits` keeps
/// idle and slow clients from taking the connections a probe needs.
public final class ObservabilityServer: Sendable {
    /// What the listener allows its clients, so that idle or slow connections
    /// from one address cannot keep `/healthz` from answering the next probe.
    /// The defaults are documented in docs/metrics.md.
    public struct Limits: Sendable, Equatable {
        /// Connections open at once, all clients together. At the cap new
        /// connections wait in the kernel's backlog until one closes.
        public var maxConnections: Int
        /// Connections open at once from one IP address; further ones are
        /// accepted and closed at once. Kept well below `maxConnections`, so
        /// one client cannot fill the cap.
        public var maxConnectionsPerIP: Int
        /// Whether loopback clients (127.0.0.0/8, `::1`) are exempt from
        /// `maxConnectionsPerIP`: a probe on this machine shares its address
        /// with every other local client, and must not find it used up.
        public var exemptsLoopback: Bool
        /// A connection with no traffic for this long is closed (whole seconds, at least 1).
        public var idleTimeout: Duration
        /// Bytes a connection may use for its request line and header fields;
        /// a request whose head is larger is refused.
        public var maxRequestHeaderBytes: Int
        /// Worker threads, each serving its share of the connections.
        public var threads: Int

        public init(
            maxConnections: Int = 256, maxConnectionsPerIP: Int = 16, exemptsLoopback: Bool = true,
            idleTimeout: Duration = .seconds(10), maxRequestHeaderBytes: Int = 16 << 10, threads: Int = 2
        ) {
            self.maxConnections = maxConnections
            self.maxConnectionsPerIP = maxConnectionsPerIP
            self.exemptsLoopback = exemptsLoopback
            self.idleTimeout = idleTimeout
            self.maxRequestHeaderBytes = maxRequestHeaderBytes
            self.threads = threads
        }

        /// The values handed to libmicrohttpd, or what is out of range.
        func daemonLimits() throws(ObservabilityError) -> herald_mhd_limits {
            guard threads >= 1, threads <= 64 else {
                throw ObservabilityError("threads must be 1 to 64, found \(threads)")
            }
            guard maxConnections >= threads, maxConnections <= 65_536 else {
                throw ObservabilityError(
                    "maxConnections must be \(threads) (one per thread) to 65536, found \(maxConnections)")
            }
            guard (1...maxConnections).contains(maxConnectionsPerIP) else {
                throw ObservabilityError(
                    "maxConnectionsPerIP must be 1 to maxConnections (\(maxConnections)), found \(maxConnectionsPerIP)")
            }
            let seconds = idleTimeout.components.seconds
            guard seconds >= 1, seconds <= 86_400 else {
                throw ObservabilityError("idleTimeout must be 1s to 24h, found \(idleTimeout)")
            }
            // libmicrohttpd needs room for its own bookkeeping beside the header bytes.
            guard maxRequestHeaderBytes >= 1024, maxRequestHeaderBytes <= 1 << 20 else {
                throw ObservabilityError("maxRequestHeaderBytes must be 1 KiB to 1 MiB, found \(maxRequestHeaderBytes)")
            }
            return herald_mhd_limits(
                connection_limit: UInt32(maxConnections), idle_timeout_seconds: UInt32(seconds),
                connection_memory_limit: maxRequestHeaderBytes,
                threads: UInt32(threads))
        }
    }

    /// What the MHD thread needs; kept alive by the server until the daemon stops.
    final class Context: Sendable {
        let metrics: MetricsRegistry
        let health: HealthState
        let connections: ConnectionsPerAddress
        init(metrics: MetricsRegistry, health: HealthState, connections: ConnectionsPerAddress) {
            self.metrics = metrics
            self.health = health
            self.connections = connections
        }

        func respond(method: String, path: String) -> (status: UInt32, contentType: String, body: String) {
            guard method == "GET" || method == "HEAD" else {
                return (405, "text/plain; charset=utf-8", "method not allowed\n")
            }
            switch path {
            case "/metrics": return (200, "text/plain; version=0.0.4; charset=utf-8", metrics.render())
            case "/healthz": return (200, "text/plain; charset=utf-8", "ok\n")
            case "/readyz": return (health.isReady ? 200 : 503, "text/plain; charset=utf-8", health.report)
            default: return (404, "text/plain; charset=utf-8", "not found: try /metrics, /healthz or /readyz\n")
            }
        }
    }

    /// `@unchecked Sendable` box: the daemon pointer is written once in init and
    /// read by `close()`, which MHD's own locking makes safe to call once.
    private final class DaemonHandle: @unchecked Sendable {
        var daemon: OpaquePointer?
        init(_ daemon: OpaquePointer) { self.daemon = daemon }
    }

    private let handle: DaemonHandle
    private let context: Unmanaged<Context>
    /// The port actually bound (the configured one, or the one chosen for port 0).
    public let port: Int

    /// Starts listening on `host:port`: an IPv4 literal, an IPv6 literal with
    /// or without brackets (`::` serves IPv4 too), or a name resolved once.
    public init(
        host: String, port: Int, metrics: MetricsRegistry, health: HealthState,
        limits: Limits = Limits()
    ) throws(ObservabilityError) {
        var daemonLimits = try limits.daemonLimits()
        let address = try SocketAddress(host: host, port: port)
        let connections = ConnectionsPerAddress(
            limit: limits.maxConnectionsPerIP, exemptsLoopback: limits.exemptsLoopback)
        let context = Unmanaged.passRetained(Context(metrics: metrics, health: health, connections: connections))
        let daemon = address.withSockaddr { sockaddr in
            herald_mhd_start(
                sockaddr, &daemonLimits, ObservabilityServer.accessHandler, ObservabilityServer.acceptPolicy,
                ObservabilityServer.connectionNotice, context.toOpaque())
        }
        guard let daemon else {
            context.release()
            throw ObservabilityError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        self.context = context
        self.handle = DaemonHandle(daemon)
        self.port = Int(herald_mhd_bound_port(daemon))
    }

    deinit { close() }

    /// Stops the daemon and its thread; idempotent.
    public func close() {
        guard let daemon = handle.daemon else { return }
        handle.daemon = nil
        MHD_stop_daemon(daemon)
        context.release()
    }

    /// A new connection: admitted unless its address holds `maxConnectionsPerIP` already.
    private static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls, let address, let client = ConnectionsPerAddress.Address(address) else { return .NO }
        return Unmanaged<Context>.fromOpaque(cls).takeUnretainedValue().connections.admit(client) ? .YES : .NO
    }

    /// A connection started or closed: a counted one is marked when it
    /// starts (its socket context), and released when it closes.
    private static let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let connection, let socketContext,
            let pointer = herald_mhd_client_address(connection), let client = ConnectionsPerAddress.Address(pointer)
        else { return }
        let connections = Unmanaged<Context>.fromOpaque(cls).takeUnretainedValue().connections
        switch code {
        case .CONNECTION_NOTIFY_STARTED:
            if connections.counts(client) { socketContext.pointee = cls }
        case .CONNECTION_NOTIFY_CLOSED:
            if socketContext.pointee != nil { connections.release(client) }
            socketContext.pointee = nil
        @unknown default:
            break
        }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, _ in
        guard let cls, let connection else { return .NO }
        // A request body (there should be none) is consumed and ignored.
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let context = Unmanaged<Context>.fromOpaque(cls).takeUnretainedValue()
        let answer = context.respond(
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/")
        var bytes = Array(answer.body.utf8)
        let response = bytes.withUnsafeMutableBytes { raw in
            MHD_create_response_from_buffer(raw.count, raw.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        _ = MHD_add_response_header(response, "Content-Type", answer.contentType)
        _ = MHD_add_response_header(response, "Cache-Control", "no-store")
        return MHD_queue_response(connection, answer.status, response)
    }
}

/// The metrics endpoint could not start (bad address, port in use).
public struct ObservabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
