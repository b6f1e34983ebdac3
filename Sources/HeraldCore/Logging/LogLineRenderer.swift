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
        var out = "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { out += "," }
            appendJSONString(key, to: &out)
            out += ":"
            switch value {
            case .int(let i): out += String(i)
            case .double(let d): out += d.isFinite ? String(d) : "null"
            case .bool(let b): out += b ? "true" : "false"
            case .string, .token: appendJSONString(value.description, to: &out)
            }
        }
        out += "}"
        return out
    }

    private static func logfmt(_ fields: [(String, LogValue)]) -> String {
        var parts: [String] = []
        parts.reserveCapacity(fields.count)
        for (key, value) in fields {
            let text = value.description
            let needsQuotes = text.isEmpty || text.contains(where: { $0 == " " || $0 == "=" || $0 == "\"" || $0.isNewline })
            if needsQuotes {
                var quoted = ""
                appendJSONString(text, to: &quoted)
                parts.append("\(key)=\(quoted)")
            } else {
                parts.append("\(key)=\(text)")
            }
        }
        return parts.joined(separator: " ")
    }

    /// Appends `text` as a JSON string literal (RFC 8259 escaping).
    static func appendJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
