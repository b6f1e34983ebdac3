/// What a request header field must be before either engine sends it: the
/// one rule both engines and the providers check against.
///
/// It exists because the engines write headers differently (nghttp2 as HPACK
/// name/value pairs, libcurl as `name: value` lines it parses again), so a
/// CR or LF in a value that one engine refuses would, in the other, end the
/// line and start a header of the caller's choosing. `HTTPClient.send`
/// refuses a request that breaks the rule with `.invalidRequest` before it
/// reaches an engine; providers call it to name the event field at fault.
///
/// - A name is a non-empty RFC 9110 token (`!#$%&'*+-.^_`|~`, digits,
///   letters): no pseudo-header (`:path`), no space, colon or control.
/// - A value holds no control character other than HTAB (RFC 9110
///   field-value: no NUL, CR, LF, DEL) and does not start or end with a
///   space or tab (RFC 9113 §8.2.1). Bytes from 0x80 up (UTF-8) are allowed.
public enum HTTPFieldRule {
    /// Why `name` cannot be a header name, or nil when it can.
    public static func problem(inName name: String) -> String? {
        guard !name.utf8.isEmpty else { return "the name is empty" }
        guard let offset = firstOffset(in: name, where: { !isTokenByte($0) }) else { return nil }
        return "the name holds \(describe(Array(name.utf8)[offset])) at byte \(offset), which a header name may not"
    }

    /// Why `value` cannot be a header value, or nil when it can. Never
    /// quotes the value (it may be a credential), only the offending byte's code.
    public static func problem(inValue value: String) -> String? {
        if let offset = firstOffset(in: value, where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return
                "the value holds \(describe(Array(value.utf8)[offset])) at byte \(offset), which a header value may not"
        }
        let bytes = value.utf8
        if let first = bytes.first, first == 0x20 || first == 0x09 { return "the value starts with a space or tab" }
        if let last = bytes.last, last == 0x20 || last == 0x09 { return "the value ends with a space or tab" }
        return nil
    }

    /// The offset of the first UTF-8 byte of `text` that `isBad`, if any. A
    /// plain loop over the string's contiguous bytes: every request's headers
    /// (its credential among them) pass through here.
    private static func firstOffset(in text: String, where isBad: (UInt8) -> Bool) -> Int? {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for offset in bytes.indices where isBad(bytes[offset]) { return offset }
            return nil
        }
        if let found { return found }
        var offset = 0
        for byte in text.utf8 {
            if isBad(byte) { return offset }
            offset += 1
        }
        return nil
    }

    /// Why the field cannot be sent, naming the header, or nil when it can.
    public static func problem(name: String, value: String) -> String? {
        if let problem = problem(inName: name) { return "header '\(printable(name))': \(problem)" }
        if let problem = problem(inValue: value) { return "header '\(name)': \(problem)" }
        return nil
    }

    /// The first problem among `headers`, naming the header.
    static func problem(in headers: [(name: String, value: String)]) -> String? {
        for header in headers {
            if let problem = problem(name: header.name, value: header.value) { return problem }
        }
        return nil
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        let code = "0x" + (hex.count == 1 ? "0" + hex : hex)
        switch byte {
        case 0x0D: return "CR (\(code))"
        case 0x0A: return "LF (\(code))"
        case 0x00: return "NUL (\(code))"
        case 0x20: return "a space (\(code))"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))' (\(code))"
        default: return "byte \(code)"
        }
    }

    /// A name for messages with control characters shown as `\xNN` (a bad name is not a secret, but may hold CR/LF).
    private static func printable(_ name: String) -> String {
        var text = ""
        for byte in name.utf8.prefix(64) {
            if byte < 0x20 || byte >= 0x7F {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }
}
