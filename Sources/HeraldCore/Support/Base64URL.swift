/// URL-safe base64 (RFC 4648 §5): the encoding of every JWT part, of Web Push
/// keys, and the alphabet Firebase installation IDs are written in. Encoding,
/// decoding and the alphabet checks are written once, here.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { out.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) }
            if let b2 { out.append(alphabet[Int(b2 & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url (padding tolerated); nil on any character outside the alphabet
    /// or an impossible length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var i = 0
        while i + 1 < values.count {
            out.append(values[i] << 2 | values[i + 1] >> 4)
            if i + 2 < values.count { out.append(values[i + 1] << 4 | values[i + 2] >> 2) }
            if i + 3 < values.count { out.append(values[i + 2] << 6 | values[i + 3]) }
            i += 4
        }
        return out
    }

    /// Whether `byte` is a letter, digit, `-` or `_` (the padding `=` is not).
    public static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// Whether `text` is non-empty unpadded URL-safe base64.
    public static func isUnpadded(_ text: String) -> Bool {
        !text.isEmpty && text.everyByte(isAlphabet)
    }
}
