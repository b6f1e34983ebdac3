/// How an `HTTP2Server` listens and what it allows each connection.
public struct HTTP2ServerConfiguration: Sendable {
    /// nghttp2's token bucket for RST_STREAM frames received (rapid-reset protection).
    ///
    /// - Important: libcurl 7.88 sends RST_STREAM after every completed
    ///   stream, so nghttp2's default (burst 1000, 33/s) tears down a busy
    ///   libcurl connection with GOAWAY(INTERNAL_ERROR) after ~1000 requests.
    ///   The default here is high enough for Herald's own client at full speed.
    public struct StreamResetLimit: Sendable {
        public var burst: Int
        public var perSecond: Int

        public init(burst: Int, perSecond: Int) {
            self.burst = burst
            self.perSecond = perSecond
        }
    }

    /// Address to bind, e.g. `127.0.0.1` (IPv4 literal).
    public var host: String
    /// Port to bind; 0 picks a free port (read it back from `HTTP2Server.port`).
    public var port: Int
    /// TLS with ALPN `h2` and `http/1.1`; nil serves cleartext (local use
    /// only): HTTP/2 with prior knowledge, or HTTP/1.1, told apart by the first bytes.
    public var tls: HTTP2ServerTLSConfiguration?
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised to each client, unless the
    /// handler chooses another per connection (`HTTP2Handler.maxConcurrentStreams(forNewConnection:)`).
    public var maxConcurrentStreams: Int
    /// What `maxConcurrentStreams` is unless set.
    public static let defaultMaxConcurrentStreams = 1000
    /// Request bodies above this are answered 413 and not handed to the handler.
    public var maxRequestBodyBytes: Int
    /// An HTTP/1.1 request line and header fields above this are answered 431
    /// (HTTP/2 header blocks are bounded by nghttp2).
    public var maxRequestHeaderBytes: Int
    /// How long an HTTP/1.1 connection the server closes keeps reading (and
    /// dropping) what its client still sends, so the client reads the last
    /// answer instead of a TCP reset.
    public var lingerTimeout: Duration
    /// If set, each connection sends GOAWAY after this many request streams
    /// (later streams on it are refused), as APNs does now and then; an
    /// HTTP/1.1 connection closes after that many answers.
    public var goAwayAfterStreams: Int?
    /// How long a graceful shutdown waits for open streams before closing.
    public var shutdownGracePeriod: Duration
    public var streamResetLimit: StreamResetLimit

    public init(
        host: String = "127.0.0.1", port: Int = 0, tls: HTTP2ServerTLSConfiguration? = nil,
        maxConcurrentStreams: Int = defaultMaxConcurrentStreams, maxRequestBodyBytes: Int = 4 << 20,
        maxRequestHeaderBytes: Int = 16 << 10, lingerTimeout: Duration = .seconds(2),
        goAwayAfterStreams: Int? = nil, shutdownGracePeriod: Duration = .seconds(5),
        streamResetLimit: StreamResetLimit = StreamResetLimit(burst: 100_000, perSecond: 100_000)
    ) {
        self.streamResetLimit = streamResetLimit
        self.host = host
        self.port = port
        self.tls = tls
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxRequestHeaderBytes = maxRequestHeaderBytes
        self.lingerTimeout = lingerTimeout
        self.goAwayAfterStreams = goAwayAfterStreams
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
