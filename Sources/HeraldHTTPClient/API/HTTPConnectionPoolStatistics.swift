import HeraldCore
import HeraldSystem

/// What one origin's connection pool holds at a moment: the figures that
/// show whether throughput is bound by streams × connections ÷ round trip
/// (Herald's `herald_http_connections` and `herald_http_streams`).
public struct HTTPConnectionPoolStatistics: Sendable, Equatable {
    /// `host:port` of the origin.
    public let host: String
    /// Connections open (TLS done), a GOAWAY'd one finishing its streams included.
    public var connections = 0
    /// Requests on a stream, sent and not yet answered.
    public var streams = 0
    /// Streams on the busiest connection: never above the server's limit.
    public var busiestConnection = 0
    /// Requests waiting at the origin for a free stream or a connection.
    public var waiting = 0

    public init(host: String) { self.host = host }
}

/// The pools' latest figures, written by the loop thread and read by anyone
/// (a metrics scrape): the loop publishes them at each of its 20 ms deadline
/// scans while it has work, and about once a second when idle. The libcurl
/// engine publishes none.
public final class HTTPClientStatistics: Sendable {
    private struct State {
        var pools: [HTTPConnectionPoolStatistics] = []
        /// GOAWAY frames received, by origin and error code name.
        var goAways: [GoAwayKey: Int] = [:]
    }

    /// An origin and the GOAWAY error code it sent.
    public struct GoAwayKey: Hashable, Sendable {
        public let host: String
        public let error: String
    }

    private let state = Locked(State())

    public init() {}

    /// Each origin's pool, as last published.
    public var pools: [HTTPConnectionPoolStatistics] { state.withLock { $0.pools } }

    /// GOAWAY frames received since the client started, by origin and error
    /// code (`NO_ERROR` for a graceful close, `PROTOCOL_ERROR` for a limit broken, …).
    public var goAways: [GoAwayKey: Int] { state.withLock { $0.goAways } }

    func update(_ pools: [HTTPConnectionPoolStatistics]) {
        state.withLock { $0.pools = pools }
    }

    func goAwayReceived(host: String, error: String) {
        state.withLock { $0.goAways[GoAwayKey(host: host, error: error), default: 0] += 1 }
    }
}
