/// What a handler answers: status, headers and body of one response stream.
public struct HTTP2Response: Sendable {
    public var status: Int
    /// Response headers; names are sent lower-cased (HTTP/2 forbids upper case).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` encoded as UTF-8.
    public init(status: Int, headers: [(name: String, value: String)] = [], text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }
}
