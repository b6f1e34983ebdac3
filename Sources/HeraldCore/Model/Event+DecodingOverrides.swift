// Decoding the raw `apns`, `fcm` and `webpush` escape hatches.

extension Event {
    static let apnsFieldNames = ["headers", "payload"]
    static let fcmFieldNames = ["android", "apns", "webpush", "fcm_options"]

    static func decodeAPNsOverrides(_ fields: FieldReader) throws(EventError) -> APNsOverrides {
        try fields.rejectUnknownKeys(allowed: apnsFieldNames)
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

    /// The FCM object keeps only the documented `message` members, each an object.
    static func decodeFCMOverrides(_ fields: FieldReader) throws(EventError) -> JSONObject {
        try fields.rejectUnknownKeys(allowed: fcmFieldNames)
        for name in fcmFieldNames {
            _ = try fields.object(name)
        }
        return fields.object
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
