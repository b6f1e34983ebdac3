import CNGHTTP2

/// Turns an `HTTPClientRequest` into an HTTP/2 request on a session:
/// pseudo-headers first, names lower-cased (RFC 9113 §8.2.1), connection-
/// specific fields dropped (§8.2.2), `content-length` for a body, and the
/// body through a data provider. The fields have passed `HTTPFieldRule`
/// in `HTTPClient.send`.
enum H2RequestHeaders {
    /// Fields HTTP/2 forbids or carries otherwise (`host` becomes `:authority`).
    private static let dropped: [[UInt8]] = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "te",
    ]
    .map { Array($0.utf8) }
    private static let contentLength = Array("content-length".utf8)

    /// Returns the stream id, or a negative nghttp2 error code.
    static func submit(_ stream: H2Stream, session: OpaquePointer) -> Int32 {
        let request = stream.request
        let method = request.method == "POST" ? "POST" : request.method.uppercased()
        // All names and values in one buffer; the nghttp2_nv entries point into it (nghttp2 copies them).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + request.body.count / 1024)
        var fields: [(nameStart: Int, nameCount: Int, valueStart: Int, valueCount: Int)] = []
        fields.reserveCapacity(request.headers.count + 5)
        func add(_ name: some Collection<UInt8>, _ value: some Collection<UInt8>, lowercase: Bool) {
            let nameStart = bytes.count
            if lowercase {
                for byte in name { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
            } else {
                bytes.append(contentsOf: name)
            }
            let valueStart = bytes.count
            bytes.append(contentsOf: value)
            fields.append((nameStart, valueStart - nameStart, valueStart, bytes.count - valueStart))
        }
        add(":method".utf8, method.utf8, lowercase: false)
        add(":scheme".utf8, (stream.url.secure ? "https" : "http").utf8, lowercase: false)
        add(":authority".utf8, stream.url.authority.utf8, lowercase: false)
        add(":path".utf8, stream.url.path.utf8, lowercase: false)
        var hasLength = false
        for header in request.headers {
            // Lower-cased straight into the buffer; a field HTTP/2 does not carry is taken out again.
            let nameStart = bytes.count
            add(header.name.utf8, header.value.utf8, lowercase: true)
            let name = bytes[nameStart..<(nameStart + fields[fields.count - 1].nameCount)]
            if dropped.contains(where: { $0.elementsEqual(name) }) {
                bytes.removeSubrange(nameStart...)
                fields.removeLast()
            } else if name.elementsEqual(contentLength) {
                hasLength = true
            }
        }
        if !hasLength && (!request.body.isEmpty || method == "POST" || method == "PUT") {
            add("content-length".utf8, String(request.body.count).utf8, lowercase: false)
        }
        return bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return Int32(NGHTTP2_ERR_INVALID_ARGUMENT.rawValue) }
            var nva = fields.map { field in
                nghttp2_nv(
                    name: base + field.nameStart, value: base + field.valueStart, namelen: field.nameCount,
                    valuelen: field.valueCount, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            if request.body.isEmpty {
                return nghttp2_submit_request(session, nil, &nva, nva.count, nil, nil)
            }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: nil), read_callback: H2SessionCallbacks.readRequestBody)
            return nghttp2_submit_request(session, nil, &nva, nva.count, &provider, nil)
        }
    }
}
