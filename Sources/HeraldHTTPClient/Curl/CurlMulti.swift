import CCurl
import CHeraldShim

/// Owns the `CURLM` multi handle: the connection pool, HTTP/2 multiplexing
/// and the per-host limits. Touched only by the loop thread, except
/// `curl_multi_wakeup`, which libcurl documents as callable from any thread.
final class CurlMulti {
    let handle: UnsafeMutableRawPointer
    /// The connections' sockets, corked between flushes; released after
    /// `curl_multi_cleanup`, whose closes still report to it.
    let sockets = SocketCork()

    init?(configuration: HTTPClientConfiguration) {
        guard CurlGlobal.ensureInitialized(), let handle = curl_multi_init() else { return nil }
        self.handle = handle
        _ = herald_curl_multi_setopt_long(handle, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = herald_curl_multi_setopt_long(
            handle, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, configuration.maxConnectionsPerHost))
        _ = herald_curl_multi_setopt_long(
            handle, CURLMOPT_MAX_CONCURRENT_STREAMS, max(1, configuration.maxConcurrentStreamsPerConnection))
        // Idle connections kept for reuse: enough for every allowed connection to a few origins.
        _ = herald_curl_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, max(8, configuration.maxConnectionsPerHost * 4))
    }

    deinit { curl_multi_cleanup(handle) }

    func add(_ easy: CurlEasy) -> CURLMcode { curl_multi_add_handle(handle, easy.handle) }

    func remove(_ easy: CurlEasy) { _ = curl_multi_remove_handle(handle, easy.handle) }

    /// Drives every transfer as far as it can go without blocking.
    func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(handle, &running)
    }

    /// Drives only the transfers libcurl has marked due: those just added,
    /// those with data already read for them, those whose timer expired.
    /// Unlike `perform()` it does not visit every transfer in flight (libcurl
    /// 7.88 polls each one's socket on every visit), so a pass that only
    /// starts new requests costs what they cost, not what is in flight.
    func performDue() {
        var running: Int32 = 0
        _ = curl_multi_socket_action(handle, Self.noSocket, 0, &running)
    }

    /// `CURL_SOCKET_TIMEOUT` (curl.h): "no socket, run the timers".
    private static let noSocket: Int32 = -1

    /// Waits for socket activity, a libcurl timer, a wake-up (`wakeFD`
    /// readable, or `curl_multi_wakeup`) or `timeoutMilliseconds`. Returns
    /// whether a connection's socket has something to read or room to write
    /// (a wake-up alone does not count; true when libcurl cannot tell) and
    /// whether `wakeFD` was readable.
    func poll(timeoutMilliseconds: Int32, wakeFD: Int32) -> (socketsReady: Bool, woken: Bool) {
        var ready: Int32 = 0
        guard wakeFD >= 0 else {
            guard curl_multi_poll(handle, nil, 0, timeoutMilliseconds, &ready) == CURLM_OK else { return (true, false) }
            return (ready > 0, false)
        }
        var wake = curl_waitfd(fd: wakeFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        guard curl_multi_poll(handle, &wake, 1, timeoutMilliseconds, &ready) == CURLM_OK else { return (true, false) }
        // libcurl counts the extra descriptor among the ready ones.
        let woken = wake.revents != 0
        return (ready - (woken ? 1 : 0) > 0, woken)
    }

    /// Calls `body` with (easy handle, result) for each finished transfer.
    func forEachCompleted(_ body: (UnsafeMutableRawPointer, CURLcode) -> Void) {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            body(easy, message.pointee.data.result)
        }
    }
}

/// Runs `curl_global_init` once per process before the first handle is made,
/// and remembers where libcurl finds the system trust store.
enum CurlGlobal {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// The system CA directory libcurl was built with (Debian: `/etc/ssl/certs`).
    static let systemCAPath: String? = {
        guard let info = curl_version_info(CURLVERSION_ELEVENTH), let path = info.pointee.capath else { return nil }
        return String(cString: path)
    }()

    static func ensureInitialized() -> Bool { initialized }
}
