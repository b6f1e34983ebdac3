import CCurl

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
