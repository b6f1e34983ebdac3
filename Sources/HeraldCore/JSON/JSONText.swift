/// Small text helpers shared by JSON and model error messages: user input
/// quoted safely (escaped, shortened) and characters named unambiguously.
package enum JSONText {
    /// `value` as a JSON string literal, cut to `limit` characters with `…`,
    /// so a message never carries raw control characters or a megabyte key.
    package static func quoted(_ value: String, limit: Int = 64) -> String {
        var shown = value
        if value.count > limit {
            shown = String(value.prefix(limit)) + "…"
        }
        var bytes: [UInt8] = []
        JSONValue.writeString(shown, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `U+000A`: a code point by number.
    package static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
