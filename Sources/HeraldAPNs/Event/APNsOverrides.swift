import HeraldCore

/// An event's escape hatch to APNs, its `apns` section: raw headers and a
/// raw payload laid over what Herald builds, so any APNs feature (Wallet
/// passes, Safari `url-args`, `interruption-level`, ...) is expressible
/// before Herald models it. FCM lays it over the `apns` block it forwards.
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

    /// The event's section these overrides are written in.
    static let section = "apns"
    static let fieldNames = ["headers", "payload"]

    /// Reads the event's `apns` section: only `headers` (each a string,
    /// named by an HTTP token, not `authorization`, one per name whatever its
    /// letter case) and `payload` (an object).
    static func decode(_ fields: FieldReader) throws(EventError) -> APNsOverrides {
        try fields.rejectUnknownKeys(allowed: fieldNames)
        var overrides = APNsOverrides(payload: try fields.object("payload"))
        guard let headers = try fields.object("headers") else { return overrides }
        let headerFields = FieldReader(object: headers, path: fields.path("headers"))
        for (name, value) in headers {
            let lowered = name.lowercased()
            guard isHeaderName(lowered), lowered != "authorization" else {
                let problem =
                    lowered == "authorization"
                    ? "Herald sets \"authorization\" itself"
                    : "not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~)"
                throw EventError(field: headerFields.path(name), message: problem)
            }
            guard overrides.headers[lowered] == nil else {
                throw EventError(
                    field: headerFields.path(name),
                    message: "repeats header \(JSONText.quoted(lowered)) in another letter case")
            }
            guard case .string(let text) = value else {
                throw .mismatch(headerFields.path(name), expected: "a string", found: value)
            }
            // Control characters (CR, LF, NUL, ...) would let a value smuggle in headers.
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                throw EventError(
                    field: headerFields.path(name), message: "header values may not contain control characters")
            }
            overrides.headers[lowered] = text
        }
        return overrides
    }

    /// An RFC 9110 token.
    private static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}

extension Event {
    /// The event's `apns` section: raw APNs headers and payload merged over
    /// what Herald builds; nil when the event has none.
    public var apns: APNsOverrides? {
        get { providerSections[APNsOverrides.section]?.as(APNsOverrides.self) }
        set { providerSections[APNsOverrides.section] = newValue.map { ProviderExtras($0) } }
    }
}
