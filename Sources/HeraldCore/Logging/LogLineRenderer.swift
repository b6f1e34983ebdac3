/// Renders one log line as JSON or logfmt, masking tokens and redacting secrets.
enum LogLineRenderer {
    /// Metadata keys whose values are never printed, whatever they hold.
    static let secretKeyFragments = ["authorization", "password", "secret", "private_key", "access_token", "key_pem", "jwt", "assertion"]

    static func render(
        format: LogFormat, time: String, level: LogLevel, label: String, message: String,
        metadata: [(String, LogValue)]
    ) -> String {
        var fields: [(String, LogValue)] = [("ts", .string(time)), ("level", .string(level.description)),
                                            ("logger", .string(label)), ("msg", .string(message))]
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
        escapingInvisibleControls(JSONValue.object(JSONObject(fields.map { ($0.0, jsonValue($0.1)) })).jsonString)
    }

    /// Whether `scalar` is a control character: C0 (which JSON escapes), DEL
    /// and C1 (which it does not, though terminals act on them: `0x9B` starts
    /// an escape sequence like ESC `[`).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` (JSON or a quoted logfmt value, where these characters can
    /// only stand inside strings) with DEL and C1 controls written as
    /// `\u00XX`, so a value from an event cannot drive the terminal or log
    /// viewer that shows the line.
    private static func escapingInvisibleControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.value <= 0x9F }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: "\\u00\(hex)".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
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
        var parts: [String] = []
        parts.reserveCapacity(fields.count)
        for (key, value) in fields {
            let text = value.description
            let needsQuotes = text.isEmpty || text.unicodeScalars.contains(where: { scalar in
                scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || isControl(scalar)
                    || scalar.properties.isWhitespace
            })
            if needsQuotes {
                parts.append("\(key)=\(escapingInvisibleControls(JSONValue.string(text).jsonString))")
            } else {
                parts.append("\(key)=\(text)")
            }
        }
        return parts.joined(separator: " ")
    }
}
