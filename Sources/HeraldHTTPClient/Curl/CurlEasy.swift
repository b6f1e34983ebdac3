import CCurl
import CHeraldShim

/// Owns one `CURL` easy handle and its error buffer. Reused across requests
/// (connections live in the multi handle's pool, not here); touched only by
/// the loop thread; `curl_easy_cleanup` in `deinit`.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    @discardableResult
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        herald_curl_easy_setopt_long(handle, option, value)
    }

    @discardableResult
    func set(_ option: CURLoption, _ value: String?) -> CURLcode {
        herald_curl_easy_setopt_string(handle, option, value)
    }

    @discardableResult
    func set(_ option: CURLoption, pointer value: UnsafeRawPointer?) -> CURLcode {
        herald_curl_easy_setopt_ptr(handle, option, value)
    }

    /// The text libcurl left in the error buffer, if any.
    var errorText: String {
        errorBuffer.pointee == 0 ? "" : String(cString: errorBuffer)
    }

    func clearError() { errorBuffer.pointee = 0 }

    func info(_ item: CURLINFO) -> Int {
        var value = 0
        _ = herald_curl_easy_getinfo_long(handle, item, &value)
        return value
    }

    /// The transfer got as far as sending its request (libcurl recorded a
    /// pre-transfer time): a failure after that may have reached the server.
    var reachedTransfer: Bool { microseconds(CURLINFO_PRETRANSFER_TIME_T) > 0 }

    /// The transfer found its host's address (looked up, or cached) or a
    /// connection: libcurl recorded a name-lookup or connect time.
    var reachedConnecting: Bool {
        microseconds(CURLINFO_NAMELOOKUP_TIME_T) > 0 || microseconds(CURLINFO_CONNECT_TIME_T) > 0
    }

    private func microseconds(_ item: CURLINFO) -> curl_off_t {
        var microseconds: curl_off_t = 0
        _ = herald_curl_easy_getinfo_off(handle, item, &microseconds)
        return microseconds
    }

    func infoPointer(_ item: CURLINFO) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        _ = herald_curl_easy_getinfo_ptr(handle, item, &value)
        return value
    }
}
