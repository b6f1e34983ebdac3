/// Reads a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds (`120`)
/// or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`, IMF-fixdate). Every
/// provider's answers are read with it.
public enum RetryAfter {
    /// The wait the header asks for, counted from `now`; a date in the past
    /// is zero; `nil` when the value is neither form.
    public static func parse(_ value: String, now: Timestamp) -> Duration? {
        let trimmed = value.trimmingWhitespace
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int(trimmed) else { return nil }
            return .seconds(seconds)
        }
        guard let date = httpDate(trimmed) else { return nil }
        return date > now ? date - now : .zero
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate, rewritten as RFC 3339 for `Timestamp`'s parser.
    static func httpDate(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            parts[1].count == 2, parts[3].count == 4, parts[4].count == 8,
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let monthText = month + 1 < 10 ? "0\(month + 1)" : "\(month + 1)"
        return Timestamp(rfc3339: "\(parts[3])-\(monthText)-\(parts[1])T\(parts[4])Z")
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
