/// Extracts `host:port` from an absolute URL for error messages, and the
/// host alone for the egress pre-check; byte-level, without Foundation.
enum URLHost {
    /// The host of an absolute URL: an IPv6 literal keeps its brackets, the port is dropped.
    static func host(of url: String) -> Substring {
        let authority = Substring(hostAndPort(of: url))
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return authority }
            return authority[...close]
        }
        return authority.prefix { $0 != ":" }
    }

    static func hostAndPort(of url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            {
                start = index + 3
                break
            }
            index += 1
        }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
            bytes[end] != UInt8(ascii: "#")
        {
            if bytes[end] == UInt8(ascii: "@") { start = end + 1 }
            end += 1
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
