/// Extracts `host:port` from an absolute URL for error messages; byte-level,
/// without Foundation, and only computed when an error is built.
enum URLHost {
    static func hostAndPort(of url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                start = index + 3
                break
            }
            index += 1
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
            if bytes[end] == UInt8(ascii: "@") { start = end + 1 }
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
