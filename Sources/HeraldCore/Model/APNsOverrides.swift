/// An event's escape hatch to APNs: raw headers and a raw payload laid over
/// what Herald builds, so any APNs feature (Wallet passes, Safari `url-args`,
/// `interruption-level`, ...) is expressible before Herald models it.
public struct APNsOverrides: Sendable, Hashable {
    /// Extra or replacing request headers, names lower-cased (HTTP/2).
    /// Decoding refuses `authorization`, names that are not HTTP tokens and
    /// values with control characters (no header injection).
    public var headers: [String: String]
    /// Merged over the built payload with RFC 7396 merge-patch semantics
    /// (`null` deletes a key).
    public var payload: JSONObject?

    public init(headers: [String: String] = [:], payload: JSONObject? = nil) {
        self.headers = headers
        self.payload = payload
    }
}
