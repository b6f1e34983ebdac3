/// An absolute `https://` URL read far enough for Web Push: its host, its
/// port, and so its origin (RFC 6454 `scheme://host[:port]`, the port only
/// when it is not 443), which is what a VAPID token's `aud` names.
///
/// A subscription's endpoint and an `https:` VAPID subject are both read
/// with it. Byte-level and without Foundation, like the rest of Herald's URL
/// handling; it refuses what a push endpoint never has (user info, spaces,
/// control or non-ASCII bytes, another scheme).
struct HTTPSURL: Sendable, Equatable {
    /// The host in lower case; an IPv6 literal keeps its brackets.
    let host: String
    /// The port when the URL names one other than 443.
    let port: Int?

    /// `https://host[:port]`.
    var origin: String { "https://" + host + (port.map { ":" + String($0) } ?? "") }

    /// Why a text is not such a URL, in words that follow the field's name
    /// (`subscription.endpoint <reason>`); never the path or query, which for
    /// a push endpoint is the capability to send to a browser.
    struct Problem: Error, Equatable {
        let reason: String
    }

    init(parsing text: String) throws(Problem) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { throw Problem(reason: "is empty") }
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw Problem(reason: "has a space, control or non-ASCII byte at offset \(bad)")
        }
        guard let separator = text.utf8.firstRange(of: "://".utf8) else {
            throw Problem(reason: "is not an absolute URL (expected https://host/path)")
        }
        let scheme = String(decoding: text.utf8[..<separator.lowerBound], as: UTF8.self).lowercased()
        guard scheme == "https" else {
            throw Problem(reason: "uses \(scheme.isEmpty ? "no scheme" : scheme + "://"); Web Push needs https://")
        }
        let rest = text.utf8[separator.upperBound...]
        let authority = rest.prefix(while: {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        })
        if authority.contains(UInt8(ascii: "@")) {
            throw Problem(reason: "carries user info (user@host), which a push URL never has")
        }
        var hostPart = authority[...]
        var portPart: Substring.UTF8View.SubSequence?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw Problem(reason: "has an unclosed [IPv6] host")
            }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if let colon = after.first {
                guard colon == UInt8(ascii: ":") else { throw Problem(reason: "has text after its [IPv6] host") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        let host = String(decoding: hostPart, as: UTF8.self).lowercased()
        guard !host.isEmpty, host != "[]" else { throw Problem(reason: "has no host") }
        let hostIsValid =
            host.hasPrefix("[")
            ? host.utf8.dropFirst().dropLast().allSatisfy {
                $0.hexDigitValue != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
            }
            : host.utf8.allSatisfy(Self.isHostByte)
        guard hostIsValid else { throw Problem(reason: "has a host with characters a host name cannot have") }
        self.host = host
        if let portPart {
            let digits = String(decoding: portPart, as: UTF8.self)
            guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int(digits), (1...65535).contains(value)
            else { throw Problem(reason: "has a port that is not a number from 1 to 65535") }
            port = value == 443 ? nil : value
        } else {
            port = nil
        }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
