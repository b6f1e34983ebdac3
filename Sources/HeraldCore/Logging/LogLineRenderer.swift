/// How a log line is rendered: one JSON object per line (the default, for log
/// shippers) or logfmt `key=value` pairs (for humans at a terminal).
public enum LogFormat: String, Sendable, CaseIterable {
    case json
    case logfmt
}

/// Renders one log line as JSON or logfmt, masking tokens and redacting secrets.
enum LogLineRenderer {
    /// Metadata keys whose values are never printed, whatever they hold.
    static let secretKeyFragments = [
        "authorization", "password", "secret", "private_key", "access_token", "key_pem", "jwt", "assertion",
    ]

    static func render(
        format: LogFormat, time: String, level: LogLevel, label: String, message: String,
        metadata: [(String, LogValue)]
    ) -> String {
        var fields: [(String, LogValue)] = [
            ("ts", .string(time)), ("level", .string(level.description)),
            ("logger", .string(label)), ("msg", .string(message)),
        ]
        for (key, value) in metadata {
            fields.append((key, sanitized(key: key, value: value)))
        }
        switch format {
        case .json: return json(fields)
        case .logfmt: return logfmt(fields)
        }
    }

    /// The fragments as bytes. Matching bytes rather than `String.contains`
    /// keeps a log line cheap (the generic substring search was ~1% of the
    /// pool's CPU when 1% of notifications logged a warning) and matches a
    /// fragment even where a combining mark follows it.
    private static let secretKeyFragmentBytes = secretKeyFragments.map { Array($0.utf8) }

    /// `true` when the lowercased key contains a secret-naming fragment.
    static func namesSecret(_ lowercasedKey: String) -> Bool {
        let key = Array(lowercasedKey.utf8)
        return secretKeyFragmentBytes.contains { fragment in
            guard key.count >= fragment.count else { return false }
            return (0...(key.count - fragment.count)).contains { start in
                key[start..<(start + fragment.count)].elementsEqual(fragment)
            }
        }
    }

    static func sanitized(key: String, value: LogValue) -> LogValue {
        let lower = key.lowercased()
        if namesSecret(lower) { return .string("[redacted]") }
        if case .string(let s) = value, lower == "token" || lower.hasSuffix("_token") || lower == "device" {
            return .token(s)
        }
        return value
    }

    private static func json(_ fields: [(String, LogValue)]) -> String {
        LogfmtValue.escapingInvisibleControls(
            JSONValue.object(JSONObject(fields.map { ($0.0, jsonValue($0.1)) })).jsonString)
    }

    private static func jsonValue(_ value: LogValue) -> JSONValue {
        switch value {
        case .int(let i): .number(JSONNumber(i))
        case .double(let d): JSONNumber(d).map(JSONValue.number) ?? .null
        case .bool(let b): .bool(b)
        case .string, .token: .string(value.description)
        }
    }

    private static func logfmt(_ fields: [(String, LogValue)]) -> String {
        fields.map { key, value in "\(key)=\(LogfmtValue.rendered(value.description))" }.joined(separator: " ")
    }
}
