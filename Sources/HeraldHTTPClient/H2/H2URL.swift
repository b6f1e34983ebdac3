/// An absolute request URL split into what an HTTP/2 request carries
/// (`:scheme`, `:authority`, `:path`) and what a connection needs (host,
/// port, TLS or h2c). Byte-level, without Foundation; parsed once per request.
struct H2URL: Equatable {
    /// `https` (TLS, ALPN h2) or `http` (h2c with prior knowledge).
    let secure: Bool
    /// The host as a resolver and certificate check want it: IPv6 without
    /// brackets, IPv4 in any form libcurl accepts (`127.1`, `2130706433`,
    /// `0x7f.0.0.1`) rewritten as a dotted quad (`IPv4Literal`), so both
    /// engines connect to, and check the certificate for, the same address.
    let host: String
    let port: Int
    /// `host[:port]` as written in the URL (the port only when it is not the
    /// scheme's default), the host canonical (an IPv4 literal as a dotted quad).
    let authority: String
    /// Path and query, at least `/`; the fragment is not sent.
    let path: String

    /// The connection pool key: one pool per scheme, host and port.
    var origin: String { (secure ? "https://" : "http://") + host + ":" + String(port) }

    /// Whether `host` is an IP literal (no SNI, IP address check of the
    /// certificate): a bracketed IPv6 address or an IPv4 literal. Anything
    /// else is a name (SNI, name check), even if made of digits and dots.
    let hostIsAddress: Bool

    /// Nil when the URL is not an absolute `http://` or `https://` URL with a host.
    init?(_ url: String) {
        let bytes = Array(url.utf8)
        let secure: Bool
        var index: Int
        if H2URL.hasPrefix(bytes, "https://") {
            secure = true
            index = 8
        } else if H2URL.hasPrefix(bytes, "http://") {
            secure = false
            index = 7
        } else {
            return nil
        }
        let authorityStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
            bytes[index] != UInt8(ascii: "#")
        {
            // User information is not supported: a push URL never carries credentials.
            if bytes[index] == UInt8(ascii: "@") { return nil }
            // No space or control character in a host (libcurl refuses them too).
            if bytes[index] <= 0x20 || bytes[index] == 0x7F { return nil }
            index += 1
        }
        let authority = bytes[authorityStart..<index]
        guard !authority.isEmpty else { return nil }
        var host: ArraySlice<UInt8>
        var portText: ArraySlice<UInt8> = []
        let bracketed = authority.first == UInt8(ascii: "[")
        if bracketed {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = authority[(authority.startIndex + 1)..<close]
            let rest = authority[(close + 1)...]
            if let colon = rest.first {
                guard colon == UInt8(ascii: ":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = authority[authority.startIndex..<colon]
            portText = authority[(colon + 1)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        var port = secure ? 443 : 80
        if !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(String(decoding: portText, as: UTF8.self)), (1...65535).contains(value)
            else { return nil }
            port = value
        }
        var pathEnd = index
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        var path = String(decoding: bytes[index..<pathEnd], as: UTF8.self)
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        self.secure = secure
        self.port = port
        self.path = path
        if !bracketed, let address = IPv4Literal.canonical(host) {
            self.host = address
            self.authority = portText.isEmpty ? address : address + ":" + String(decoding: portText, as: UTF8.self)
            hostIsAddress = true
        } else {
            self.host = String(decoding: host, as: UTF8.self)
            self.authority = String(decoding: authority, as: UTF8.self)
            hostIsAddress = bracketed
        }
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[offset] | 0x20 != start[offset] | 0x20 { return false }
        return true
    }
}
