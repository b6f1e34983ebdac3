/// Limits and TLS material for one `HTTPClient` (one loop thread, its connection pool).
public struct HTTPClientConfiguration: Sendable {
    /// The HTTP/2 implementation under the client.
    public enum Engine: String, Sendable, CaseIterable {
        /// Herald's own client on nghttp2 and OpenSSL (the default): one loop
        /// thread with epoll, connection pools per origin, writes coalesced
        /// per loop pass, PING keep-alive. See docs/http2.md.
        case nghttp2
        /// libcurl's multi interface (HTTP/2 through nghttp2 inside libcurl).
        case libcurl

        /// The `maxConnectionsPerHost` of `connections: auto`. The nghttp2
        /// engine opens a connection only when the waiting requests need it
        /// at the stream limit the host showed, so 64 leaves the count to the
        /// in-flight window and the host; libcurl opens one whenever the open
        /// ones' streams are busy (a host allowing one stream at first gets a
        /// connection per waiting request), so its `auto` stays at 4.
        public var automaticConnections: Int {
            switch self {
            case .nghttp2: 64
            case .libcurl: 4
            }
        }
    }

    public var engine: Engine
    /// Connections opened to one origin at most (under libcurl,
    /// CURLMOPT_MAX_HOST_CONNECTIONS); further requests wait for a free stream.
    /// Another connection opens only when every open one is full and work
    /// waits, so the in-flight window (`maxInFlightRequests`) bounds how many
    /// are used: about window ÷ the server's stream limit. `automaticConnections`
    /// (`Engine.automaticConnections`) is the maximum that leaves the sizing to the window.
    public var maxConnectionsPerHost: Int
    /// Streams multiplexed on one connection at most (under libcurl,
    /// CURLMOPT_MAX_CONCURRENT_STREAMS); the server's
    /// SETTINGS_MAX_CONCURRENT_STREAMS lowers it further.
    public var maxConcurrentStreamsPerConnection: Int
    /// Whole-request timeout, queueing for a stream included, unless the request sets its own.
    public var requestTimeout: Duration
    /// How long opening a connection (TCP and TLS) may take; a request whose
    /// connection is not up by then fails with `.timeout`, freeing its slot
    /// before its `requestTimeout` would.
    public var connectTimeout: Duration
    /// Response bodies above this fail with `.responseTooLarge` (memory cap;
    /// the nghttp2 engine resets the stream, libcurl aborts the transfer).
    /// Default 1 MiB: APNs and FCM answers are a few hundred bytes.
    public var maxResponseBodyBytes: Int
    /// Response header fields above this in total (names plus values,
    /// pseudo-headers and interim 1xx responses included) fail with
    /// `.responseTooLarge`, the stream reset or the transfer aborted.
    /// Default 64 KiB.
    public var maxResponseHeaderBytes: Int
    /// Keep-alive of idle connections. The nghttp2 engine sends an HTTP/2
    /// PING on a connection idle this long and drops it when the PING is not
    /// answered within another interval; both engines also set TCP
    /// keep-alive probes at this interval (libcurl 7.88 sends PING only from
    /// `curl_easy_upkeep`, which does not reach a multi handle's connections,
    /// so under libcurl TCP keep-alive is what keeps them warm).
    public var keepAliveInterval: Duration
    /// Idle connections older than this are closed rather than reused (under
    /// libcurl, CURLOPT_MAXAGE_CONN).
    public var maxIdleConnectionAge: Duration
    /// An origin's connections beyond one that carried no stream this long
    /// are closed (the nghttp2 engine): the extras opened for a burst go when
    /// it ends, and one stays open, kept alive by PINGs, until
    /// `maxIdleConnectionAge`. Requests fill an origin's connections oldest
    /// first, so the extras are the ones that fall idle.
    public var extraConnectionIdleTimeout: Duration
    /// Easy handles kept for reuse after their transfer ends (libcurl engine only).
    public var maxIdleHandles: Int
    /// Requests the loop has in flight at once; more wait in a queue
    /// (`WaitingRoom`; one per tenant with `fairness`), their timeout counting. Each one in flight holds its
    /// stream's buffers (under libcurl, an easy handle of tens of KiB).
    /// Throughput is at most this ÷ the round trip (Little's law): the
    /// default, 2048, carries 20,000 requests/s to a provider 100 ms away.
    public var maxInFlightRequests: Int
    /// Corks each connection's socket and flushes it once per loop pass, so
    /// the frames of the requests started together share TCP segments
    /// instead of one segment per HTTP/2 frame (`SocketCork`). On by
    /// default; off only to compare. The libcurl engine only: the nghttp2
    /// engine always writes each connection's frames once per loop pass.
    public var coalescesWrites: Bool
    /// While busy, the loop looks for work once per this window instead of
    /// waking for every request and response (`LoopPacing`): fewer wake-ups at
    /// moderate rates, at most this much added wait. `.zero` (the library's
    /// default) wakes for everything; Herald's `io_pacing` sets it. The nghttp2
    /// engine only.
    public var pacingWindow: Duration
    /// Whether a TLS server that does not select `h2` in ALPN may answer over
    /// HTTP/1.1 (the libcurl engine only): Web Push services are reached
    /// through whichever the push service speaks, one request per HTTP/1.1
    /// connection at a time, pooled per origin up to `maxConnectionsPerHost`.
    /// Off: HTTP/2 or nothing, as APNs and FCM require.
    public var acceptsHTTP1 = false
    /// Shares of the window per sender and a cap per sender and origin
    /// (the libcurl engine only); nil: one queue, oldest first.
    public var fairness: HTTPClientFairness?
    /// Which addresses the client may connect to, checked on each resolved
    /// address before its socket connects (both engines) and on an IP
    /// literal before the request starts: `.unrestricted` (the default) for
    /// hosts from configuration, `.publicAddressesOnly` for hosts from input
    /// (Web Push). A refused destination fails with `.egressRefused`. Under
    /// the policy the libcurl engine uses no proxy (`https_proxy` and the
    /// like are ignored): a proxy would connect where the policy cannot see.
    public var egress: EgressPolicy = .unrestricted
    public var tls: HTTPClientTLSConfiguration

    public init(
        maxConnectionsPerHost: Int = 2, maxConcurrentStreamsPerConnection: Int = 1000,
        requestTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
        maxResponseBodyBytes: Int = 1 << 20, keepAliveInterval: Duration = .seconds(30),
        maxIdleConnectionAge: Duration = .seconds(600), maxIdleHandles: Int = 256, maxInFlightRequests: Int = 2048,
        coalescesWrites: Bool = true, tls: HTTPClientTLSConfiguration = HTTPClientTLSConfiguration(),
        engine: Engine = .nghttp2, pacingWindow: Duration = .zero, maxResponseHeaderBytes: Int = 64 << 10,
        extraConnectionIdleTimeout: Duration = .seconds(60)
    ) {
        self.extraConnectionIdleTimeout = extraConnectionIdleTimeout
        self.maxResponseHeaderBytes = maxResponseHeaderBytes
        self.pacingWindow = pacingWindow
        self.engine = engine
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxConcurrentStreamsPerConnection = maxConcurrentStreamsPerConnection
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.keepAliveInterval = keepAliveInterval
        self.maxIdleConnectionAge = maxIdleConnectionAge
        self.maxIdleHandles = maxIdleHandles
        self.maxInFlightRequests = max(1, maxInFlightRequests)
        self.coalescesWrites = coalescesWrites
        self.tls = tls
    }
}
