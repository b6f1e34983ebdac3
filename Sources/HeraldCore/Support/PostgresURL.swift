/// A PostgreSQL connection URL read the way libpq reads its URI form
/// (`postgres[ql]://[user[:password]@][host][:port][,host[:port]…][/dbname][?keyword=value&…]`),
/// so `herald check` refuses what libpq would refuse, with a message that
/// never shows the password — libpq's own messages quote the token they
/// could not read, password included.
///
/// libpq's rules: the user info runs to the first `@` before any `/` (the
/// password from its first `:`); a host list of names, `[IPv6]` literals and
/// ports up to `/` or `?`; then the database up to `?`; then `keyword=value`
/// pairs separated by `&` (`password`, `host`, `sslmode`, … ; `ssl=true`
/// means `sslmode=require`). Every part is percent-decoded: a `%` must be
/// followed by two hex digits, and `%00` is refused.
public struct PostgresURL: Sendable, Equatable {
    /// The user name, decoded; nil when the URL gives none.
    public var user: String?
    /// The password, decoded (a `?password=` wins over the user info's); nil when none is given.
    public var password: String?
    /// The hosts, decoded, in order (`host=` in the query replaces them): an
    /// empty one is libpq's default, the Unix socket; one starting with `/` is a socket directory.
    public var hosts: [String]
    /// The query's parameters, decoded, the last of a keyword winning.
    public var parameters: [String: String]

    /// The `sslmode` asked for (`ssl=true` is `require`), nil when none is given (libpq's default is `prefer`).
    public var sslMode: String? { parameters["sslmode"] }

    /// Parses `url` as libpq would; the error never quotes a password.
    public init(parsing url: String) throws(PostgresURLError) {
        guard let rest = Self.withoutScheme(url) else {
            throw PostgresURLError("expected a postgres:// or postgresql:// URL")
        }
        var parameters: [String: String] = [:]
        var index = rest.startIndex
        if let userInfo = Self.rawUserInfo(rest) {
            let (user, password) = Self.split(userInfo)
            if !user.isEmpty { self.user = try Self.decode(user, part: "the user name") }
            if let password { self.password = try Self.decode(password, part: "the password", secret: true) }
            index = rest.index(after: userInfo.endIndex)
        }
        // Hosts and ports, up to the path or query.
        var hosts: [String] = []
        var ports: [String] = []
        var next = Character("\0")
        repeat {
            var host: Substring
            if index < rest.endIndex, rest[index] == "[" {
                let start = rest.index(after: index)
                guard let close = rest[start...].firstIndex(of: "]") else {
                    throw PostgresURLError("an IPv6 host address has no closing \"]\"")
                }
                guard close > start else { throw PostgresURLError("an IPv6 host address is empty") }
                host = rest[start..<close]
                index = rest.index(after: close)
                if index < rest.endIndex, !":/?,".contains(rest[index]) {
                    throw PostgresURLError(
                        "unexpected \"\(rest[index])\" after an IPv6 host address (expected \":\", \"/\", \"?\" or \",\")"
                    )
                }
            } else {
                let end = rest[index...].firstIndex { ":/?,".contains($0) } ?? rest.endIndex
                host = rest[index..<end]
                index = end
            }
            hosts.append(try Self.decode(host, part: "a host"))
            next = index < rest.endIndex ? rest[index] : "\0"
            if next == ":" {
                let start = rest.index(after: index)
                let end = rest[start...].firstIndex { "/?,".contains($0) } ?? rest.endIndex
                ports.append(try Self.decode(rest[start..<end], part: "a port"))
                index = end
                next = index < rest.endIndex ? rest[index] : "\0"
            }
            if next == "," { index = rest.index(after: index) }
        } while next == ","
        for port in ports where !port.isEmpty && !(port.allSatisfy(\.isASCII) && UInt16(port) != nil) {
            throw PostgresURLError("port \"\(port.truncatedForMessage)\" is not a number from 0 to 65535")
        }
        if next == "/" {
            let start = rest.index(after: index)
            let end = rest[start...].firstIndex(of: "?") ?? rest.endIndex
            if start < end { parameters["dbname"] = try Self.decode(rest[start..<end], part: "the database name") }
            index = end
            next = index < rest.endIndex ? "?" : "\0"
        }
        if next == "?" {
            var pairs = rest[rest.index(after: index)...].split(separator: "&", omittingEmptySubsequences: false)
            if pairs.last?.isEmpty == true { pairs.removeLast() }
            for pair in pairs {
                let pieces = pair.split(separator: "=", maxSplits: 2, omittingEmptySubsequences: false)
                let keyword = try Self.decode(pieces[0], part: "a query keyword")
                guard pieces.count == 2 else {
                    throw PostgresURLError(
                        pieces.count == 1
                            ? "query parameter \"\(keyword.truncatedForMessage)\" has no \"=\""
                            : "query parameter \"\(keyword.truncatedForMessage)\" has a second \"=\"")
                }
                let value = try Self.decode(
                    pieces[1], part: "the value of \(keyword.truncatedForMessage)",
                    secret: keyword == "password")
                if keyword == "ssl" && value == "true" {
                    parameters["sslmode"] = "require"
                } else {
                    parameters[keyword] = value
                }
            }
        }
        if let password = parameters.removeValue(forKey: "password") { self.password = password }
        if let host = parameters["host"] {
            self.hosts = host.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        } else {
            self.hosts = hosts
        }
        self.parameters = parameters
    }

    /// Every form a password of `url` may take in a message: each password
    /// token as written (the user info's, a `?password=`'s) and decoded,
    /// whether or not the rest of the URL can be read. Longest first, so a
    /// scrubber replaces a whole token before any part of it.
    public static func passwordForms(in url: String) -> [String] {
        guard let rest = withoutScheme(url) else { return [] }
        var raw: [Substring] = []
        if let userInfo = rawUserInfo(rest), let password = split(userInfo).password { raw.append(password) }
        if let query = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: query)...].split(separator: "&") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                if pair[..<equals] == "password" || lenientDecode(pair[..<equals]) == "password" {
                    raw.append(pair[pair.index(after: equals)...])
                }
            }
        }
        var forms = Set<String>()
        for token in raw where !token.isEmpty {
            forms.insert(String(token))
            let decoded = lenientDecode(token)
            if !decoded.isEmpty { forms.insert(decoded) }
        }
        return forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The URL after `postgres://` or `postgresql://`.
    private static func withoutScheme(_ url: String) -> Substring? {
        for scheme in ["postgresql://", "postgres://"] where url.hasPrefix(scheme) {
            return url.dropFirst(scheme.count)
        }
        return nil
    }

    /// The user info as libpq finds it: up to the first `@` seen before any `/`.
    private static func rawUserInfo(_ rest: Substring) -> Substring? {
        guard let stop = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[stop] == "@" else { return nil }
        return rest[..<stop]
    }

    /// The user and, after the first `:`, the password of the user info.
    private static func split(_ userInfo: Substring) -> (user: Substring, password: Substring?) {
        guard let colon = userInfo.firstIndex(of: ":") else { return (userInfo, nil) }
        return (userInfo[..<colon], userInfo[userInfo.index(after: colon)...])
    }

    /// Percent-decoding as libpq does it; the error names `part` and shows
    /// the token only when it is not `secret`.
    private static func decode(_ token: Substring, part: String, secret: Bool = false) throws(PostgresURLError)
        -> String
    {
        var bytes: [UInt8] = []
        var iterator = token.utf8.makeIterator()
        let shown = secret ? "" : " \"\(String(token).truncatedForMessage)\""
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(\.hexDigitValue),
                let low = iterator.next().flatMap(\.hexDigitValue)
            else {
                throw PostgresURLError(
                    "\(part)\(shown) holds a \"%\" not followed by two hex digits; write a \"%\" as %25")
            }
            guard high != 0 || low != 0 else {
                throw PostgresURLError("\(part)\(shown) holds %00, which libpq refuses")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-decoding that leaves what it cannot decode as it is: the
    /// forms a scrubber looks for.
    private static func lenientDecode(_ token: Substring) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(token.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = utf8[index + 1].hexDigitValue, let low = utf8[index + 2].hexDigitValue, high != 0 || low != 0
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why a PostgreSQL URL cannot be used; the message never quotes a password.
public struct PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
