/// The `http:` section: where `/metrics`, `/healthz` and `/readyz` listen.
public struct HTTPSettings: Sendable, Equatable, Decodable {
    /// `host:port`; `[::1]:9464` for IPv6.
    public var listen: String

    public init(listen: String = "127.0.0.1:9464") { self.listen = listen }

    enum CodingKeys: String, CodingKey { case listen }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        listen = try c.decodeIfPresent(String.self, forKey: .listen) ?? HTTPSettings().listen
    }

    /// The host and port of `listen`, or nil when it is not `host:port` with a port in 0...65535
    /// (0: any free port, for tests and several instances on one host).
    public var hostAndPort: (host: String, port: Int)? {
        guard let colon = listen.lastIndex(of: ":") else { return nil }
        var host = String(listen[..<colon])
        guard let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port), !host.isEmpty else {
            return nil
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }
}
