import CCurl
import CHeraldShim
import COpenSSL

/// One request in flight on the loop thread: its easy handle, header list,
/// deadline and the response being collected by libcurl's callbacks.
final class Transfer {
    let pending: PendingRequest
    let url: String
    let easy: CurlEasy
    /// CLOCK_MONOTONIC nanoseconds after which the loop fails the request itself.
    let deadline: UInt64
    /// When the loop first took the request (CLOCK_MONOTONIC ns): its wait counts from here.
    let takenAt: UInt64
    /// What it holds in its tenant's share (with `HTTPClientFairness`), released when it ends.
    let slot: TenantSlot?
    let bodyLimit: Int
    let headerLimit: Int
    /// TLS (`https://`) without `acceptsHTTP1`: the connection must have
    /// negotiated h2 in ALPN. Cleartext requests use HTTP/2 with prior
    /// knowledge, nothing else.
    let requiresH2: Bool
    var headerList: UnsafeMutablePointer<curl_slist>?
    var responseHeaders: [(name: String, value: String)] = []
    var responseBody: [UInt8] = []
    var bodyLimitExceeded = false
    /// Bytes of header names and values (and status lines) received so far.
    var headerBytes = 0
    var headerLimitExceeded = false
    /// Set by the pre-request check when the connection is not HTTP/2: what ALPN said.
    var http2Refusal: HTTPClientError?
    /// Set when libcurl starts resolving the host for this request (`CurlCallbacks.resolverStart`).
    var resolveStarted = false
    /// Which addresses this transfer may connect to.
    let egress: EgressPolicy
    /// Set by the open-socket check when the egress policy refused an
    /// address the host resolved to (the last one refused).
    var egressRefusal: HTTPClientError?

    init(
        pending: PendingRequest, url: String, easy: CurlEasy, deadline: UInt64, bodyLimit: Int, headerLimit: Int,
        acceptsHTTP1: Bool = false, takenAt: UInt64 = 0, slot: TenantSlot? = nil, egress: EgressPolicy = .unrestricted
    ) {
        self.egress = egress
        self.pending = pending
        self.url = url
        self.easy = easy
        self.deadline = deadline
        self.takenAt = takenAt
        self.slot = slot
        self.bodyLimit = bodyLimit
        self.headerLimit = headerLimit
        let secure =
            url.utf8.count >= 8 && url.utf8.prefix(8).map { $0 | 0x20 }.elementsEqual("https://".utf8.map { $0 | 0x20 })
        requiresH2 = secure && !acceptsHTTP1
    }

    deinit { curl_slist_free_all(headerList) }

    var id: UInt64 { pending.id }

    /// `host:port` for error messages.
    var host: String { URLHost.hostAndPort(of: url) }

    static func from(_ userData: UnsafeMutableRawPointer) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(userData).takeUnretainedValue()
    }

    /// libcurl's header callback: one call per header line, status line
    /// included. Returns false (abort the transfer) past the header limit.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !headerLimitExceeded else { return false }
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return true }
        // Counted like the nghttp2 engine: names and values; the ": " and line ends are not.
        let colonAt = line[0..<end].firstIndex(of: 0x3A)
        headerBytes += colonAt == nil ? end : end - 2
        guard headerBytes <= headerLimit else {
            headerLimitExceeded = true
            return false
        }
        if end >= 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F {
            // "HTTP/..." starts a new response (after a 1xx): forget earlier headers.
            responseHeaders.removeAll(keepingCapacity: true)
            return true
        }
        guard let colon = colonAt else { return true }
        var valueStart = colon + 1
        while valueStart < end, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<end]), as: UTF8.self)
        responseHeaders.append((name, value))
        return true
    }

    /// libcurl's pre-request callback: whether the connection the request is
    /// about to go out on speaks HTTP/2. For TLS that is ALPN's `h2`, read
    /// from the connection's `SSL` (libcurl's OpenSSL backend); a connection
    /// whose `SSL` cannot be read is refused too. Records the refusal.
    func connectionSpeaksHTTP2() -> Bool {
        guard requiresH2 else { return true }
        let info = easy.infoPointer(CURLINFO_TLS_SSL_PTR)?.assumingMemoryBound(to: curl_tlssessioninfo.self)
        guard let info, info.pointee.backend == CURLSSLBACKEND_OPENSSL, let internals = info.pointee.internals else {
            http2Refusal = HTTPClientError(
                kind: .http2Unavailable, host: host,
                message: "libcurl gave no OpenSSL connection to check ALPN h2 on; nothing was sent")
            return false
        }
        let alpn = ALPN.negotiatedH2(OpaquePointer(internals))
        if !alpn.isH2 { http2Refusal = HTTPClientError.http2Unavailable(host: host, selected: alpn.selected) }
        return alpn.isH2
    }

    /// libcurl's open-socket callback: whether the policy lets the transfer
    /// connect to `address`, one of the host's resolved addresses. Records a refusal.
    func admitsConnection(to address: UnsafeMutablePointer<curl_sockaddr>) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBufferPointer { herald_curl_sockaddr_ip(address, $0.baseAddress) }
        guard let ip = IPAddress(bytes: bytes.prefix(count)) else {
            // Neither IPv4 nor IPv6 (a Unix socket): nothing the policy can allow.
            egressRefusal = HTTPClientError(
                kind: .egressRefused, host: host, message: "the address is neither IPv4 nor IPv6")
            return false
        }
        guard let refusal = egress.refusal(for: ip) else { return true }
        egressRefusal = .egressRefused(host: host, refusal)
        return false
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
