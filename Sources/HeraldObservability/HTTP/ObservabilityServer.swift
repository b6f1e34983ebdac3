import CHeraldShim
import CMicroHTTPD
import Glibc

/// Serves `/metrics`, `/healthz` and `/readyz` on libmicrohttpd, which owns its
/// own thread (epoll): a well-kept HTTP implementation rather than a
/// hand-written parser. Handlers only read the registry and health state.
public final class ObservabilityServer: Sendable {
    /// What the MHD thread needs; kept alive by the server until the daemon stops.
    final class Context: Sendable {
        let metrics: MetricsRegistry
        let health: HealthState
        init(metrics: MetricsRegistry, health: HealthState) {
            self.metrics = metrics
            self.health = health
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

    /// Starts listening on `host:port` (an IPv4 or IPv6 literal, or a name resolved once).
    public init(host: String, port: Int, metrics: MetricsRegistry, health: HealthState) throws(ObservabilityError) {
        let context = Unmanaged.passRetained(Context(metrics: metrics, health: health))
        let address = try SocketAddress(host: host, port: port)
        let daemon = address.withSockaddr { sockaddr in
            herald_mhd_start(sockaddr, ObservabilityServer.accessHandler, context.toOpaque())
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

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, _ in
        guard let cls, let connection else { return .NO }
        // A request body (there should be none) is consumed and ignored.
        if let uploadSize, uploadSize.pointee > 0 {
            uploadSize.pointee = 0
            return .YES
        }
        let context = Unmanaged<Context>.fromOpaque(cls).takeUnretainedValue()
        let answer = context.respond(method: method.map { String(cString: $0) } ?? "",
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
