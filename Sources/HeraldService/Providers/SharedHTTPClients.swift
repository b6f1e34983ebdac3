import HeraldCore
import HeraldHTTPClient

/// The HTTP/2 clients the providers send through: one per TLS identity (CA
/// file and client certificate), shared by every app and provider that has
/// that identity — typically all token-authenticated APNs apps and all FCM
/// apps on one client, each certificate-authenticated APNs app on its own.
///
/// Why: each client is a loop thread with its own connections (an epoll
/// loop, or a libcurl multi handle). Shared, an event's APNs and FCM
/// requests wake one thread, not two, and one loop pass carries both
/// (measured end to end: ~11% less CPU per notification, 8% more
/// throughput); a hundred apps need a handful of threads, not two hundred. Connections stay per host (Apple's, Google's, the token
/// endpoint), each with its own streams.
///
/// A client caps connections per host for all its requests, so a shared
/// client allows each host the largest `connections` of its sharers (both
/// engines open another connection to a host only when the open ones have
/// no free stream). Requests carry their provider's own timeout. The window of
/// requests in flight grows with the apps sharing the client (one app's
/// window each, at most `maxInFlight`), not with its providers: an app's
/// APNs and FCM share one window (docs/configuration.md says why).
///
/// A client whose providers ask for `HTTPClientFairness` (Web Push) gives
/// each app a share of that window, its requests tagged with the app's name:
/// one app's window, or the client's window divided by its apps when the
/// apps' windows exceed `maxInFlight`, so the shares fit the window together
/// and one app's endpoints that never answer cannot take another's slots.
struct SharedHTTPClients {
    /// Requests in flight on one shared client at most, however many apps share it.
    static let maxInFlight = 8192

    /// What makes two providers' clients one: the same TLS identity, the
    /// same engine, whether HTTP/1.1 is spoken (Web Push only) and the same
    /// egress policy (an app that allows internal addresses never shares
    /// the client of one that does not).
    struct Key: Hashable {
        let tls: HTTPClientTLSConfiguration
        let engine: HTTPClientConfiguration.Engine
        let acceptsHTTP1: Bool
        let egress: EgressPolicy

        init(_ configuration: HTTPClientConfiguration) {
            tls = configuration.tls
            engine = configuration.engine
            acceptsHTTP1 = configuration.acceptsHTTP1
            egress = configuration.egress
        }
    }

    /// Every client's `pacingWindow` (`io_pacing`).
    var pacingWindow: Duration = .zero
    private var configurations: [Key: HTTPClientConfiguration] = [:]
    /// Per client: each sharing app's window (the largest of its providers').
    private var windows: [Key: [String: Int]] = [:]
    private var order: [Key] = []

    /// Notes that `app`'s provider will send with `configuration`; call for
    /// every provider before `clients(logger:)`.
    mutating func register(_ configuration: HTTPClientConfiguration, app: String) {
        let tls = Key(configuration)
        windows[tls, default: [:]][app] = max(windows[tls]?[app] ?? 0, configuration.maxInFlightRequests)
        guard var merged = configurations[tls] else {
            configurations[tls] = configuration
            order.append(tls)
            return
        }
        merged.maxConnectionsPerHost = max(merged.maxConnectionsPerHost, configuration.maxConnectionsPerHost)
        merged.requestTimeout = max(merged.requestTimeout, configuration.requestTimeout)
        merged.connectTimeout = max(merged.connectTimeout, configuration.connectTimeout)
        merged.extraConnectionIdleTimeout = max(
            merged.extraConnectionIdleTimeout, configuration.extraConnectionIdleTimeout)
        merged.maxInFlightRequests = min(Self.maxInFlight, windows[tls, default: [:]].values.reduce(0, +))
        configurations[tls] = merged
    }

    /// The merged configuration of the client `configuration` is shared into, once registered.
    func configuration(for configuration: HTTPClientConfiguration) -> HTTPClientConfiguration? {
        configurations[Key(configuration)]
    }

    /// Each app's share of a fair client's window: the largest app window, or
    /// an equal part of the client's window when the apps' windows do not fit it.
    static func tenantWindow(of appWindows: [String: Int], clientWindow: Int) -> Int {
        max(1, min(appWindows.values.max() ?? clientWindow, clientWindow / max(1, appWindows.count)))
    }

    /// One client per TLS identity and engine registered, keyed by them.
    func clients(logger: Logger) -> [Key: HTTPClient] {
        var clients: [Key: HTTPClient] = [:]
        for (index, tls) in order.enumerated() {
            guard var configuration = configurations[tls] else { continue }
            configuration.pacingWindow = pacingWindow
            if var fairness = configuration.fairness {
                fairness.tenantWindow = Self.tenantWindow(
                    of: windows[tls] ?? [:], clientWindow: configuration.maxInFlightRequests)
                configuration.fairness = fairness
            }
            clients[tls] = HTTPClient(
                configuration: configuration, logger: logger.child("http").with(["client": .int(index)]))
        }
        return clients
    }
}
