/// The request line and header fields of one HTTP/1.1 request, checked and
/// reduced to what a handler sees over HTTP/2: method, path, authority, and
/// the end-to-end fields (names lower-cased).
///
/// The fields that only frame the message or steer this connection (`host`,
/// `connection` and the fields it names, `keep-alive`, `proxy-connection`,
/// `transfer-encoding`, `te`, `upgrade`, `expect`) are used here and not
/// passed on, as an HTTP/2 request would not carry them.
struct HTTP1RequestHead {
    /// How the body is delimited.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: String
    /// The origin-form target (path and query), also for an absolute-form request.
    var path: String
    /// `Host`, or the absolute-form target's authority.
    var authority: String
    var headers: [(name: String, value: String)]
    var framing: Framing
    /// `Connection: close`: the answer closes the connection.
    var closeRequested: Bool
    /// `Expect: 100-continue`: the client waits for `100 Continue` before the body.
    var expectsContinue: Bool

    private static let connectionFields: Set<String> = [
        "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "upgrade", "expect",
    ]

    init(lines: [ArraySlice<UInt8>], maxBodyBytes: Int) throws(HTTP1ParseFailure) {
        guard let requestLine = lines.first else { throw HTTP1ParseFailure(400, "empty request") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte),
            !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { throw HTTP1ParseFailure(400, "malformed request line") }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" else {
            let looksLikeVersion = version.utf8.count == 8 && version.hasPrefix("HTTP/")
            throw looksLikeVersion
                ? HTTP1ParseFailure(505, "\(version) is not served here; use HTTP/1.1 or HTTP/2")
                : HTTP1ParseFailure(400, "malformed request line")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)

        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw HTTP1ParseFailure(400, "malformed header field line")
            }
            let name = line[line.startIndex..<colon]
            // A space before the colon, or a line folded onto the previous one, is refused (RFC 9112 §5).
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                throw HTTP1ParseFailure(400, "malformed header field name")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw HTTP1ParseFailure(400, "control character in a header field value")
            }
            fields.append((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
        }

        func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }
        func tokens(_ name: String) -> [String] {
            values(name).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: " \t").lowercased() }
                .filter { !$0.isEmpty }
        }

        let hosts = values("host")
        guard hosts.count == 1, let host = hosts.first, !host.isEmpty, !host.contains(" ") else {
            throw HTTP1ParseFailure(400, hosts.count > 1 ? "more than one Host field" : "missing or empty Host field")
        }
        (path, authority) = try Self.resolve(target: target, method: method, host: host)

        let codings = tokens("transfer-encoding")
        let lengths = values("content-length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: " \t") }
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw HTTP1ParseFailure(400, "both Transfer-Encoding and Content-Length") }
            guard codings.last == "chunked" else {
                throw HTTP1ParseFailure(400, "Transfer-Encoding does not end in chunked")
            }
            guard codings.count == 1 else { throw HTTP1ParseFailure(501, "only the chunked transfer coding is served") }
            framing = .chunked
        } else if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
                first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(first)
            else { throw HTTP1ParseFailure(400, "malformed Content-Length") }
            guard length <= maxBodyBytes else { throw HTTP1ParseFailure(413, "the body exceeds \(maxBodyBytes) bytes") }
            framing = length == 0 ? .none : .length(length)
        } else {
            framing = .none
        }

        let expectations = tokens("expect")
        guard expectations.allSatisfy({ $0 == "100-continue" }) else {
            throw HTTP1ParseFailure(417, "only Expect: 100-continue is served")
        }
        expectsContinue = !expectations.isEmpty && framing != .none

        let connection = tokens("connection")
        closeRequested = connection.contains("close")
        let dropped = Self.connectionFields.union(connection)
        headers = fields.filter { !dropped.contains($0.name) }
    }

    /// Path and authority from the request target: origin form (`/p?q`),
    /// absolute form (`https://host/p`), or `*` for OPTIONS.
    private static func resolve(target: String, method: String, host: String) throws(HTTP1ParseFailure) -> (
        String, String
    ) {
        if target.hasPrefix("/") { return (target, host) }
        if target == "*", method == "OPTIONS" { return (target, host) }
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = String(rest[rest.startIndex..<slash])
            guard !authority.isEmpty, !authority.contains("@") else { break }
            let path = String(rest[slash...])
            return (path.isEmpty ? "/" : path, authority)
        }
        throw HTTP1ParseFailure(400, "malformed request target")
    }

    /// `tchar` (RFC 9110 §5.6.2): what a method or a field name is made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension Substring {
    /// Without the leading and trailing characters in `set` (spaces and tabs around a list element).
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
