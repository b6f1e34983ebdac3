import HeraldCore
/// A duration written the way operators write them in config: `250ms`, `5s`,
/// `2m`, `1h`, `270d` (days of 24 hours), or combined like `1h30m`.
///
/// A bare number is refused: `5` could mean seconds or milliseconds, and the
/// error says to write `5s`.
public struct ConfigDuration: Sendable, Hashable, Comparable, CustomStringConvertible, Decodable {
    public let milliseconds: Int

    public init(milliseconds: Int) { self.milliseconds = milliseconds }

    public static func seconds(_ s: Int) -> ConfigDuration { ConfigDuration(milliseconds: s * 1000) }

    public var seconds: Double { Double(milliseconds) / 1000 }
    public var duration: Duration { .milliseconds(milliseconds) }

    public static func < (lhs: ConfigDuration, rhs: ConfigDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The shortest exact spelling in hours at most, e.g. `90s` → `1m30s`, as
    /// used in queue names (`herald.retry.30s`, so `d` is read, never written:
    /// `1d` is `24h`).
    public var description: String {
        var rest = milliseconds
        guard rest > 0 else { return "0s" }
        var out = ""
        for (unit, size) in [("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)] where rest >= size {
            out += "\(rest / size)\(unit)"
            rest %= size
        }
        return out
    }

    /// Parses `text`; `nil` when it is not a duration (the caller reports where).
    public init?(parsing text: String) {
        let units: [(String, Int)] = [("ms", 1), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        var rest = Substring(text)
        var total = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let (unit, size) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            let (product, overflow) = value.multipliedReportingOverflow(by: size)
            guard !overflow else { return nil }
            total += product
        }
        milliseconds = total
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = ConfigDuration(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected a duration like 500ms, 5s, 2m or 1h, found '\(text.truncatedForMessage)'"
                        + (Int(text) != nil ? " (write \(text)s for seconds)" : "")))
        }
        self = parsed
    }
}
