/// One complete request as the server received it — an HTTP/2 stream or an
/// HTTP/1.1 request — handed to a handler.
///
/// Built once per request on the event loop; a value, so a handler may keep it,
/// send it to another task, or record it for a test to assert on.
public struct HTTP2Request: Sendable {
    public var method: String
    public var path: String
    public var authority: String
    public var scheme: String
    /// Regular (non-pseudo) headers in arrival order; names are lower case as
    /// HTTP/2 requires (HTTP/1.1 names are lower-cased, and the fields that
    /// only frame or steer an HTTP/1.1 connection — `host`, `connection`,
    /// `transfer-encoding`, `expect`, ... — are left out).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The TLS client certificate the peer presented, if any (APNs certificate authentication).
    public var peerCertificate: HTTP2PeerCertificate?
    /// Identifies the connection the stream arrived on (stable for its lifetime).
    public var connectionID: UInt64
    /// The HTTP/2 stream id; over HTTP/1.1 the request's number on its connection (1, 2, ...).
    public var streamID: Int32
    public var httpVersion: HTTPVersion

    public init(
        method: String, path: String, authority: String = "", scheme: String = "https",
        headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        peerCertificate: HTTP2PeerCertificate? = nil, connectionID: UInt64 = 0, streamID: Int32 = 0,
        httpVersion: HTTPVersion = .http2
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.scheme = scheme
        self.headers = headers
        self.body = body
        self.peerCertificate = peerCertificate
        self.connectionID = connectionID
        self.streamID = streamID
        self.httpVersion = httpVersion
    }

    /// The first value of header `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }
}
