/// One complete request stream as the server received it, handed to a handler.
///
/// Built once per stream on the event loop; a value, so a handler may keep it,
/// send it to another task, or record it for a test to assert on.
public struct HTTP2Request: Sendable {
    public var method: String
    public var path: String
    public var authority: String
    public var scheme: String
    /// Regular (non-pseudo) headers in arrival order; names are lower case as HTTP/2 requires.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The TLS client certificate the peer presented, if any (APNs certificate authentication).
    public var peerCertificate: HTTP2PeerCertificate?
    /// Identifies the connection the stream arrived on (stable for its lifetime).
    public var connectionID: UInt64
    public var streamID: Int32

    public init(
        method: String, path: String, authority: String = "", scheme: String = "https",
        headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        peerCertificate: HTTP2PeerCertificate? = nil, connectionID: UInt64 = 0, streamID: Int32 = 0
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
    }

    /// The first value of header `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }
}
