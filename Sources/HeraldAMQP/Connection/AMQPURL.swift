/// A parsed `amqp://` or `amqps://` URL, per RabbitMQ's URI spec:
/// `amqp[s]://[user[:password]@]host[:port][/vhost]`, every part percent-decoded
/// (`%2f` is the default vhost `/`). This parser is the one rule for what an
/// AMQP address is: whatever reads addresses from elsewhere (a config file)
/// asks it, so a URL is never accepted in one place and refused in another.
///
/// An absent or empty vhost means `/` (RabbitMQ has no vhost named "").
/// IPv6 hosts go in brackets: `amqp://[::1]:5672`. The user info ends at the
/// last `@` before the host and the password at its first `:`, so an
/// unescaped `@` or `:` in a password is read as part of it; `/`, `?` and `#`
/// must be escaped (`%2F`, `%3F`, `%23`). Refused: no host, a query (its
/// parameters are not read, so none would take effect), a `#`, a host name
/// with characters no host name has, a port outside 1-65535, and bad
/// percent-encoding.
public struct AMQPURL: Sendable, Equatable, CustomStringConvertible {
    public var tls: Bool
    public var host: String
    public var port: Int
    public var user: String
    public var password: String
    public var vhost: String

    public init(
        tls: Bool = false, host: String = "127.0.0.1", port: Int? = nil, user: String = "guest",
        password: String = "guest", vhost: String = "/"
    ) {
        self.tls = tls
        self.host = host
        self.port = port ?? (tls ? 5671 : 5672)
        self.user = user
        self.password = password
        self.vhost = vhost
    }

    /// Parses `text`; the error names what is wrong but never echoes the password.
    public init(_ text: String) throws(AMQPError) {
        func invalid(_ why: String) -> AMQPError {
            AMQPError(.invalidArgument, operation: "parse AMQP URL", detail: why, isRetryable: false)
        }
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("amqps://") {
            tls = true
            rest = text.dropFirst("amqps://".count)
        } else if text.hasPrefix("amqp://") {
            tls = false
            rest = text.dropFirst("amqp://".count)
        } else {
            throw invalid("scheme must be amqp:// or amqps://")
        }
        if rest.contains("?") {
            throw invalid(
                "a query (?...) is not read, so its parameters would not take effect"
                    + " (a ? in a user name or password is written %3F)")
        }
        if rest.contains("#") {
            throw invalid("'#' has no place in an AMQP URL (a # in a user name or password is written %23)")
        }
        var vhost = "/"
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            if path.contains("/") { throw invalid("vhost must be one path segment (write / as %2f)") }
            guard let decoded = Self.percentDecoded(path) else { throw invalid("bad percent-encoding in vhost") }
            if !decoded.isEmpty { vhost = decoded }
            rest = rest[..<slash]
        }
        var user = "guest"
        var password = "guest"
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let decodedUser = Self.percentDecoded(parts[0]) else { throw invalid("bad percent-encoding in user") }
            user = decodedUser
            if parts.count == 2 {
                guard let decodedPassword = Self.percentDecoded(parts[1]) else {
                    throw invalid("bad percent-encoding in password")
                }
                password = decodedPassword
            }
        }
        var host = rest
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("unclosed [ in IPv6 host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                port = Self.port(after.dropFirst())
            } else if !after.isEmpty {
                throw invalid("junk after IPv6 host")
            }
            if !host.utf8.allSatisfy(Self.isIPv6Byte) {
                throw invalid("the IPv6 host has a character IPv6 addresses cannot have")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = Self.port(rest[rest.index(after: colon)...])
        }
        if let port, !(1...65535).contains(port) { throw invalid("port must be 1-65535") }
        guard !host.isEmpty else { throw invalid("the URL names no host") }
        if !rest.hasPrefix("["), !host.utf8.allSatisfy(Self.isHostNameByte) {
            throw invalid("the host name has a character host names cannot have")
        }
        guard let decodedHost = Self.percentDecoded(host) else { throw invalid("bad percent-encoding in host") }
        self.init(tls: tls, host: decodedHost, port: port, user: user, password: password, vhost: vhost)
    }

    /// `host:port` (an IPv6 host in brackets): which node, without credentials or vhost.
    public var node: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// The URL with the password masked, for logs and errors.
    public var description: String {
        let encodedVhost = vhost.utf8.map { byte -> String in
            let c = Character(Unicode.Scalar(byte))
            return (c.isLetter || c.isNumber || "-._~".contains(c)) && byte < 0x80 ? String(c) : "%" + hex(byte)
        }.joined()
        return "\(tls ? "amqps" : "amqp")://\(user):***@\(node)/\(encodedVhost)"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(\.hexDigitValue),
                    let low = iterator.next().flatMap(\.hexDigitValue)
                else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The digits after the host's `:`; -1 (refused) when there are none or anything else is there.
    private static func port(_ text: Substring) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return -1
        }
        return Int(text) ?? -1
    }

    private static func isIPv6Byte(_ byte: UInt8) -> Bool {
        byte.hexDigitValue != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    /// RFC 3986 `reg-name` (and IPv4): unreserved, sub-delims and the `%` of a percent-escape.
    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,;=%".utf8.contains(byte)
        }
    }
}
