/// A strict, incremental HTTP/1.1 request parser (RFC 9112), so one port can
/// answer Google's clients that speak HTTP/1.1 (google-auth's `requests`
/// transport, firebase-admin) beside HTTP/2.
///
/// Bytes go in with `append`; `next()` returns what they complete: a request
/// head whose body is still to come (so the connection can send
/// `100 Continue`), a whole request, or nil for "more bytes needed". What it
/// does not accept it refuses with the status to answer before closing:
/// 400 (malformed), 413 (body over the limit), 417 (an `Expect` other than
/// `100-continue`), 431 (head over the limit), 501 (a transfer coding other
/// than chunked), 505 (not HTTP/1.1). It is a value used by one connection
/// on the loop thread; after a refusal it must not be used again.
struct HTTP1RequestParser {
    /// Request line, header fields and their CRLFs; also bounds a chunked body's trailer section.
    let maxHeaderBytes: Int
    /// Bytes of body (after chunked decoding) a request may carry.
    let maxBodyBytes: Int

    /// A chunk's size line (size and extensions) longer than this is refused.
    private static let maxChunkLineBytes = 1024

    private enum State {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
    }

    /// What the bytes so far complete.
    enum Event {
        /// The head of a request with a body still to come.
        case head(HTTP1RequestHead)
        /// A whole request: head and body.
        case request(HTTP1RequestHead, body: [UInt8])
    }

    private var state = State.head
    private var input: [UInt8] = []
    private var start = 0
    /// How far the search for the end of the head has looked (so it does not start over).
    private var scanned = 0
    private var head: HTTP1RequestHead?
    private var body: [UInt8] = []

    init(maxHeaderBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether bytes are buffered that no request has consumed yet (a partial or pipelined request).
    var hasBufferedInput: Bool { start < input.count || head != nil }

    /// Whether part of a request head is buffered, and not all of it.
    var isReadingHead: Bool {
        guard case .head = state else { return false }
        return start < input.count
    }

    /// Whether the buffered bytes hold any of the current request's body.
    var hasBufferedBody: Bool { head != nil && start < input.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= input.count / 2 {
            input.removeFirst(start)
            scanned = max(0, scanned - start)
            start = 0
        }
        input.append(contentsOf: bytes)
    }

    /// The next head or request the buffered bytes complete, or nil when more are needed.
    mutating func next() throws(HTTP1ParseFailure) -> Event? {
        while true {
            switch state {
            case .head:
                guard let parsed = try parseHead() else { return nil }
                switch parsed.framing {
                case .none:
                    return .request(parsed, body: [])
                case .length(let length):
                    head = parsed
                    state = .body(remaining: length)
                case .chunked:
                    head = parsed
                    state = .chunkSize
                }
                return .head(parsed)
            case .body(let remaining):
                let count = min(remaining, input.count - start)
                body.append(contentsOf: input[start..<start + count])
                start += count
                if remaining - count > 0 {
                    state = .body(remaining: remaining - count)
                    return nil
                }
                return finish()
            case .chunkSize:
                guard let line = try line(limit: Self.maxChunkLineBytes, what: "chunk size line", tooLongStatus: 400)
                else { return nil }
                guard line.count <= Self.maxChunkLineBytes else {
                    throw HTTP1ParseFailure(400, "the chunk size line is too long")
                }
                let size = try Self.chunkSize(line)
                guard body.count + size <= maxBodyBytes else {
                    throw HTTP1ParseFailure(413, "the body exceeds \(maxBodyBytes) bytes")
                }
                state = size == 0 ? .trailers(bytes: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, input.count - start)
                body.append(contentsOf: input[start..<start + count])
                start += count
                guard remaining - count == 0 else {
                    state = .chunkData(remaining: remaining - count)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard input.count - start >= 2 else { return nil }
                guard input[start] == 0x0D, input[start + 1] == 0x0A else {
                    throw HTTP1ParseFailure(400, "chunk data not followed by CRLF")
                }
                start += 2
                state = .chunkSize
            case .trailers(let bytes):
                guard
                    let line = try line(
                        limit: max(0, maxHeaderBytes - bytes), what: "trailer section", tooLongStatus: 431)
                else {
                    return nil
                }
                if line.isEmpty { return finish() }
                // Trailer fields are read and dropped: no handler needs them.
                guard line.contains(UInt8(ascii: ":")) else { throw HTTP1ParseFailure(400, "malformed trailer field") }
                let total = bytes + line.count + 2
                guard total <= maxHeaderBytes else {
                    throw HTTP1ParseFailure(431, "the trailer section exceeds \(maxHeaderBytes) bytes")
                }
                state = .trailers(bytes: total)
            }
        }
    }

    private mutating func finish() -> Event? {
        guard let head else { return nil }
        let event = Event.request(head, body: body)
        self.head = nil
        body = []
        state = .head
        return event
    }

    /// The next CRLF-terminated line (without the CRLF), nil if not all here;
    /// one longer than `limit` is refused with `tooLongStatus`.
    private mutating func line(limit: Int, what: String, tooLongStatus: Int) throws(HTTP1ParseFailure) -> ArraySlice<
        UInt8
    >? {
        var index = start
        while index + 1 < input.count {
            if input[index] == 0x0D {
                guard input[index + 1] == 0x0A else { throw HTTP1ParseFailure(400, "CR without LF in the \(what)") }
                let line = input[start..<index]
                start = index + 2
                return line
            }
            if input[index] == 0x0A { throw HTTP1ParseFailure(400, "LF without CR in the \(what)") }
            index += 1
        }
        if input.count - start > limit { throw HTTP1ParseFailure(tooLongStatus, "the \(what) exceeds \(limit) bytes") }
        return nil
    }

    /// Parses the head once its blank line has arrived.
    private mutating func parseHead() throws(HTTP1ParseFailure) -> HTTP1RequestHead? {
        // RFC 9112 §2.2: empty lines before a request line are ignored.
        while input.count - start >= 2, input[start] == 0x0D, input[start + 1] == 0x0A { start += 2 }
        scanned = max(scanned, start)
        var end: Int?
        while scanned + 3 < input.count {
            if input[scanned] == 0x0D, input[scanned + 1] == 0x0A, input[scanned + 2] == 0x0D,
                input[scanned + 3] == 0x0A
            {
                end = scanned
                break
            }
            scanned += 1
        }
        guard let end else {
            if input.count - start > maxHeaderBytes { throw Self.headTooLarge(maxHeaderBytes) }
            return nil
        }
        guard end + 4 - start <= maxHeaderBytes else { throw Self.headTooLarge(maxHeaderBytes) }
        let lines = Self.split(input[start..<end])
        start = end + 4
        scanned = start
        return try HTTP1RequestHead(lines: lines, maxBodyBytes: maxBodyBytes)
    }

    private static func headTooLarge(_ limit: Int) -> HTTP1ParseFailure {
        HTTP1ParseFailure(431, "the request line and header fields exceed \(limit) bytes")
    }

    /// The head's lines, split at CRLF (a CR or LF elsewhere is left in a line, where the checks refuse it).
    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A {
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[lineStart..<bytes.endIndex])
        return lines
    }

    /// `1*HEXDIG [ chunk-ext ]`: the size; extensions are ignored.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTP1ParseFailure) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }
        guard !digits.isEmpty, digits.count <= 15 else { throw HTTP1ParseFailure(400, "malformed chunk size") }
        var size = 0
        for byte in digits {
            guard let value = byte.hexDigitValue.map(Int.init) else {
                throw HTTP1ParseFailure(400, "malformed chunk size")
            }
            size = size * 16 + value
        }
        return size
    }
}

/// Why a request is refused: the status to answer and a line saying why
/// (the answer's body and the connection's log line).
struct HTTP1ParseFailure: Error {
    let status: Int
    let message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
