/// One request on the nghttp2 engine, from submission to its answer: the
/// request, what has come back of the response, and where it stands.
/// Owned by the loop thread.
final class H2Stream {
    let pending: PendingRequest
    let request: HTTPClientRequest
    let url: H2URL
    /// Monotonic nanoseconds; past it the request fails with `.timeout`.
    let deadline: UInt64
    let timeout: Duration
    /// The connection and stream id once submitted; nil while queued at its origin.
    weak var connection: H2Connection?
    var streamID: Int32 = -1
    /// How much of `request.body` nghttp2 has taken.
    var bodyOffset = 0
    var status = 0
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Bytes of response header names and values so far (interim responses and trailers included).
    var headerBytes = 0
    /// Set when the response's headers or body were too large (the stream is reset).
    var limitExceeded = false
    /// Times the server refused the stream unprocessed (REFUSED_STREAM or
    /// above a GOAWAY's last stream id) and it was sent again.
    var refusals = 0
    /// Set once the waiter has its answer (or gave up); later events for the stream are ignored.
    var isDone = false

    var id: UInt64 { pending.id }
    var host: String { url.host + ":" + String(url.port) }

    init(pending: PendingRequest, request: HTTPClientRequest, url: H2URL, deadline: UInt64, timeout: Duration) {
        self.pending = pending
        self.request = request
        self.url = url
        self.deadline = deadline
        self.timeout = timeout
    }

    /// Response headers: `:status` becomes `status`; an interim (1xx) block is dropped.
    func receiveHeader(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if name.count == 7, name.elementsEqual(":status".utf8) {
            // nghttp2 has checked it is three digits; the parse stays bounded whatever arrives.
            var code = 0
            for byte in value.prefix(3) where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                code = code * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if status >= 100 && status < 200 { headers.removeAll() }
            status = code
            return
        }
        headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
}
