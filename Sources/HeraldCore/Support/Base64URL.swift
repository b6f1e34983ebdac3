/// The URL-safe base64 alphabet (RFC 4648 §5) that Firebase installation IDs
/// are written in: the event decoder and the simulated FCM both check FIDs
/// against it, so it is written once, here.
public enum Base64URL {
    /// Whether `byte` is a letter, digit, `-` or `_` (the padding `=` is not).
    public static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// Whether `text` is non-empty unpadded URL-safe base64.
    public static func isUnpadded(_ text: String) -> Bool {
        !text.isEmpty && text.everyByte(isAlphabet)
    }
}
