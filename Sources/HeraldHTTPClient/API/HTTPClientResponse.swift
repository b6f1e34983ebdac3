/// A complete response: status, headers (lower-case names as received over HTTP/2) and body.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The HTTP version the exchange used (`2` for HTTP/2, `1` for HTTP/1.x).
    public var httpVersion: Int

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], httpVersion: Int = 2) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
    }

    /// The first value of header `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }
}
