/// Writes a handler's `HTTP2Response` as an HTTP/1.1 response: status line,
/// the handler's fields (names lower-cased, as over HTTP/2), then the
/// framing this server owns — always `content-length` (no chunked
/// responses), and `connection: close` on the connection's last answer.
enum HTTP1ResponseWriter {
    /// Fields the handler may not set: the connection frames and steers the message itself.
    private static let framingFields: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "upgrade", "te",
    ]

    /// The interim answer to `Expect: 100-continue`.
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Appends `response` to `output`. `headOnly` (a HEAD request) keeps the
    /// body's length but not the body; 1xx, 204 and 304 carry neither.
    static func write(_ response: HTTP2Response, headOnly: Bool, closing: Bool, into output: inout [UInt8]) {
        let status = (100...999).contains(response.status) ? response.status : 500
        output.append(contentsOf: "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
        for (name, value) in response.headers {
            let lower = name.lowercased()
            // A name or value that could end the line early would let a handler forge fields: left out.
            guard !lower.isEmpty, !framingFields.contains(lower),
                lower.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }),
                value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
            else { continue }
            output.append(contentsOf: lower.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        let bodyless = status < 200 || status == 204 || status == 304
        if !bodyless { output.append(contentsOf: "content-length: \(response.body.count)\r\n".utf8) }
        if closing { output.append(contentsOf: "connection: close\r\n".utf8) }
        output.append(contentsOf: "\r\n".utf8)
        if !bodyless, !headOnly { output.append(contentsOf: response.body) }
    }

    /// The answer to a request the parser refused: a short plain-text reason, then the connection closes.
    static func refusal(_ failure: HTTP1ParseFailure) -> HTTP2Response {
        HTTP2Response(
            status: failure.status, headers: [("content-type", "text/plain; charset=utf-8")],
            text: failure.message + "\n")
    }

    /// RFC 9110's reason phrases for the statuses handlers and this server use; others get none (allowed).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
