/// `application/x-www-form-urlencoded` encoding of one value: the token
/// request's body is a form, and the grant type contains `:`.
enum FormEncoding {
    /// Percent-encodes everything but unreserved characters (RFC 3986 §2.3).
    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
