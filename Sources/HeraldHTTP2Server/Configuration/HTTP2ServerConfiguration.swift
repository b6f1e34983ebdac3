/// How an `HTTP2Server` listens and what it allows each connection.
///
/// The listener's limits (`maxConnections`, `idleTimeout`, `headerTimeout`,
/// `maxHeaderListBytes`, `rapidResetLimit`) keep one misbehaving client —
/// many idle connections, a slow or silent one, an HPACK bomb, a rapid
/// reset — from taking the server down for the others (docs/security.md,
/// "The simulator's listener"). Their defaults are defined here only.
public struct HTTP2ServerConfiguration: Sendable {
    /// A token bucket for reset streams: `burst` resets at once, refilled at
    /// `perSecond` (one token every 1/`perSecond` s) up to `burst` again.
    ///
    /// Used twice: by nghttp2 for every RST_STREAM received
    /// (`streamResetLimit`), and by the server for resets of streams it had
    /// not answered yet (`rapidResetLimit`).
    ///
    /// - Important: libcurl 7.88 sends RST_STREAM after every completed
    ///   stream, so nghttp2's default (burst 1000, 33/s) tears down a busy
    ///   libcurl connection with GOAWAY(INTERNAL_ERROR) after ~1000 requests.
    ///   The `streamResetLimit` default is high enough for Herald's own client
    ///   at full speed; `rapidResetLimit` ignores those resets.
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
    /// (HTTP/2 header lists are bounded by `maxHeaderListBytes`).
    public var maxRequestHeaderBytes: Int
    /// An HTTP/2 request's decoded header list (each field's name + value +
    /// 32, RFC 9113 §6.5.2, pseudo-header fields and trailers included) above
    /// this is answered 431 and not handed to the handler; the fields past the
    /// limit are counted, not kept. Advertised as SETTINGS_MAX_HEADER_LIST_SIZE.
    public var maxHeaderListBytes: Int
    /// Open connections at most (every protocol, lingering ones included). At
    /// the cap the server stops accepting: further connections wait in the
    /// kernel's listen backlog until one closes.
    public var maxConnections: Int
    /// A connection with no stream (HTTP/2) or request (HTTP/1.1) in progress
    /// that receives nothing for this long is closed (HTTP/2: GOAWAY(NO_ERROR) first).
    public var idleTimeout: Duration
    /// A connection has this long from accept to finish its TLS handshake and
    /// send the HTTP/2 client preface or its first HTTP/1.1 request head; a
    /// later HTTP/1.1 request head has this long from its first byte. Over
    /// it the connection is closed (slow or silent clients).
    public var headerTimeout: Duration
    /// How long the server stops accepting after `accept` fails for want of
    /// resources (EMFILE, ENFILE, ENOBUFS, ENOMEM), instead of retrying at once.
    public var acceptBackoff: Duration
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
    /// nghttp2's own bucket for every RST_STREAM received (see `StreamResetLimit`).
    public var streamResetLimit: StreamResetLimit
    /// Resets of streams the server had not answered yet (opened, then reset
    /// by the client before a response was submitted), per connection. Over
    /// it the connection gets GOAWAY(ENHANCE_YOUR_CALM) and is closed
    /// (rapid reset, CVE-2023-44487). Resets of answered streams never count.
    public var rapidResetLimit: StreamResetLimit

    public init(
        host: String = "127.0.0.1", port: Int = 0, tls: HTTP2ServerTLSConfiguration? = nil,
        maxConcurrentStreams: Int = defaultMaxConcurrentStreams, maxRequestBodyBytes: Int = 4 << 20,
        maxRequestHeaderBytes: Int = 16 << 10, maxHeaderListBytes: Int = 64 << 10, maxConnections: Int = 1024,
        idleTimeout: Duration = .seconds(60), headerTimeout: Duration = .seconds(10),
        acceptBackoff: Duration = .milliseconds(100), lingerTimeout: Duration = .seconds(2),
        goAwayAfterStreams: Int? = nil, shutdownGracePeriod: Duration = .seconds(5),
        streamResetLimit: StreamResetLimit = StreamResetLimit(burst: 100_000, perSecond: 100_000),
        rapidResetLimit: StreamResetLimit = StreamResetLimit(burst: 200, perSecond: 100)
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxRequestHeaderBytes = maxRequestHeaderBytes
        self.maxHeaderListBytes = maxHeaderListBytes
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.acceptBackoff = acceptBackoff
        self.lingerTimeout = lingerTimeout
        self.goAwayAfterStreams = goAwayAfterStreams
        self.shutdownGracePeriod = shutdownGracePeriod
        self.streamResetLimit = streamResetLimit
        self.rapidResetLimit = rapidResetLimit
    }
}
