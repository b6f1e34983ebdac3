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

    static func sanitized(key: String, value: LogValue) -> LogValue {
        let lower = key.lowercased()
        if secretKeyFragments.contains(where: { lower.contains($0) }) { return .string("[redacted]") }
        if case .string(let s) = value, lower == "token" || lower.hasSuffix("_token") || lower == "device" {
            return .token(s)
        }
        return value
    }

    private static func json(_ fields: [(String, LogValue)]) -> String {
        JSONValue.object(JSONObject(fields.map { ($0.0, jsonValue($0.1)) })).jsonString
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
            let needsQuotes = text.isEmpty || text.contains(where: { $0 == " " || $0 == "=" || $0 == "\"" || $0.isNewline })
            if needsQuotes {
                parts.append("\(key)=\(JSONValue.string(text).jsonString)")
            } else {
                parts.append("\(key)=\(text)")
            }
        }
        return parts.joined(separator: " ")
    }
}
