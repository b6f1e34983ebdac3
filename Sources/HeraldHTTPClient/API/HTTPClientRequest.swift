/// One HTTP request for `HTTPClient.send`: method, absolute URL, headers, body.
public struct HTTPClientRequest: Sendable {
    public var method: String
    /// Absolute `https://` URL (or `http://` for h2c with prior knowledge).
    public var url: String
    /// Header names are sent as given; HTTP/2 lower-cases them on the wire.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Overrides `HTTPClientConfiguration.requestTimeout` for this request.
    public var timeout: Duration?
    /// Who sends it, for `HTTPClientConfiguration.fairness` (Herald: the
    /// app): requests of one tenant share its part of the window. Ignored
    /// without fairness.
    public var tenant: String

    public init(
        method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        timeout: Duration? = nil, tenant: String = ""
    ) {
        self.tenant = tenant
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
