/// Parses an `application/x-www-form-urlencoded` body (the token request).
enum FormBody {
    /// Name → value; `+` is a space, `%XX` a byte; a repeated name keeps its first value.
    static func parse(_ bytes: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
                let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
