import CCurl

/// One request in flight on the loop thread: its easy handle, header list,
/// deadline and the response being collected by libcurl's callbacks.
final class Transfer {
    let pending: PendingRequest
    let url: String
    let easy: CurlEasy
    /// CLOCK_MONOTONIC nanoseconds after which the loop fails the request itself.
    let deadline: UInt64
    let bodyLimit: Int
    var headerList: UnsafeMutablePointer<curl_slist>?
    var responseHeaders: [(name: String, value: String)] = []
    var responseBody: [UInt8] = []
    var bodyLimitExceeded = false

    init(pending: PendingRequest, url: String, easy: CurlEasy, deadline: UInt64, bodyLimit: Int) {
        self.pending = pending
        self.url = url
        self.easy = easy
        self.deadline = deadline
        self.bodyLimit = bodyLimit
    }

    deinit { curl_slist_free_all(headerList) }

    var id: UInt64 { pending.id }

    /// `host:port` for error messages.
    var host: String { URLHost.hostAndPort(of: url) }

    static func from(_ userData: UnsafeMutableRawPointer) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(userData).takeUnretainedValue()
    }

    /// libcurl's header callback: one call per header line, status line included.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return }
        if end >= 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F {
            // "HTTP/..." starts a new response (after a 1xx): forget earlier headers.
            responseHeaders.removeAll(keepingCapacity: true)
            return
        }
        guard let colon = line[0..<end].firstIndex(of: 0x3A) else { return }
        var valueStart = colon + 1
        while valueStart < end, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<end]), as: UTF8.self)
        responseHeaders.append((name, value))
    }

    /// libcurl's write callback: returns false (abort the transfer) past the body limit.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard responseBody.count + chunk.count <= bodyLimit else {
            bodyLimitExceeded = true
            return false
        }
        responseBody.append(contentsOf: chunk)
        return true
    }
}
