import CCurl
import CHeraldShim

/// Options set on an easy handle: once per handle (`applyBase`) and once per request (`apply`).
extension CurlEasy {
    /// Options that stay the same for every request of one client: TLS,
    /// HTTP/2, keep-alive, limits, callbacks. Set when the handle is created.
    func applyBase(_ configuration: HTTPClientConfiguration) {
        set(CURLOPT_NOSIGNAL, 1)
        // Push providers speak HTTPS (or h2c locally); any other scheme is an invalid request.
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_PIPEWAIT, 1)
        set(CURLOPT_SSL_VERIFYPEER, 1)
        set(CURLOPT_SSL_VERIFYHOST, 2)
        set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        set(CURLOPT_TCP_KEEPALIVE, 1)
        let keepAlive = max(1, Self.milliseconds(configuration.keepAliveInterval) / 1000)
        set(CURLOPT_TCP_KEEPIDLE, keepAlive)
        set(CURLOPT_TCP_KEEPINTVL, keepAlive)
        set(CURLOPT_MAXAGE_CONN, max(1, Self.milliseconds(configuration.maxIdleConnectionAge) / 1000))
        // Push requests and answers are small; libcurl's defaults (16 KiB receive,
        // 64 KiB upload buffer per handle) cost ~80 KiB per request in flight.
        set(CURLOPT_BUFFERSIZE, 4096)
        set(CURLOPT_UPLOAD_BUFFERSIZE, 16384)
        _ = herald_curl_easy_setopt_write_function(handle, CurlCallbacks.write)
        _ = herald_curl_easy_setopt_header_function(handle, CurlCallbacks.header)
        // HTTP/2 or nothing, unless `acceptsHTTP1`: CURL_HTTP_VERSION_2TLS alone falls back to
        // HTTP/1.1 when ALPN does not say h2, so the pre-request check refuses such a connection.
        _ = herald_curl_easy_setopt_prereq_function(handle, CurlCallbacks.prerequest)
        _ = herald_curl_easy_setopt_resolver_start_function(handle, CurlCallbacks.resolverStart)
        // A declared Content-Length over the limit fails before the body arrives.
        _ = herald_curl_easy_setopt_off(
            handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseBodyBytes))
        if configuration.egress.refusesSpecialPurposeAddresses {
            // Each resolved address passes the policy before its socket exists (DNS rebinding
            // cannot slip past it); a proxy would connect where the check cannot see, so none.
            _ = herald_curl_easy_setopt_opensocket_function(handle, CurlCallbacks.openSocket)
            set(CURLOPT_PROXY, "")
        }
        if let caFile = configuration.tls.caFile {
            // CAINFO replaces the default bundle; CAPATH keeps the system store trusted too.
            set(CURLOPT_CAINFO, caFile)
            set(CURLOPT_CAPATH, CurlGlobal.systemCAPath ?? "/etc/ssl/certs")
        }
        switch configuration.tls.clientCertificate {
        case .none:
            break
        case .pem(let certificateFile, let keyFile, let keyPassword):
            set(CURLOPT_SSLCERT, certificateFile)
            set(CURLOPT_SSLCERTTYPE, "PEM")
            set(CURLOPT_SSLKEY, keyFile)
            set(CURLOPT_SSLKEYTYPE, "PEM")
            if let keyPassword { set(CURLOPT_KEYPASSWD, keyPassword) }
        case .pkcs12(let file, let password):
            set(CURLOPT_SSLCERT, file)
            set(CURLOPT_SSLCERTTYPE, "P12")
            set(CURLOPT_KEYPASSWD, password)
        }
    }

    /// Options of one request. Returns a curl code other than `CURLE_OK` if the request cannot be sent.
    func apply(_ request: HTTPClientRequest, to transfer: Transfer, timeout: Duration) -> CURLcode {
        clearError()
        var rc = set(CURLOPT_URL, request.url)
        guard rc == CURLE_OK else { return rc }
        set(
            CURLOPT_HTTP_VERSION,
            request.url.hasPrefix("http://")
                ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2TLS)
        set(CURLOPT_TIMEOUT_MS, max(1, Self.milliseconds(timeout)))
        let context = UnsafeRawPointer(Unmanaged.passUnretained(transfer).toOpaque())
        set(CURLOPT_WRITEDATA, pointer: context)
        set(CURLOPT_HEADERDATA, pointer: context)
        set(CURLOPT_PREREQDATA, pointer: context)
        set(CURLOPT_RESOLVER_START_DATA, pointer: context)
        set(CURLOPT_OPENSOCKETDATA, pointer: context)
        set(CURLOPT_PRIVATE, pointer: UnsafeRawPointer(bitPattern: UInt(transfer.id)))

        var hasContentType = false
        var list: UnsafeMutablePointer<curl_slist>?
        var line: [CChar] = []
        for header in request.headers {
            if !hasContentType, Self.isContentType(header.name) { hasContentType = true }
            // "name: value", or "name;" for an empty value (libcurl's syntax), NUL-terminated.
            line.removeAll(keepingCapacity: true)
            for byte in header.name.utf8 { line.append(CChar(bitPattern: byte)) }
            if header.value.isEmpty {
                line.append(CChar(bitPattern: UInt8(ascii: ";")))
            } else {
                line.append(CChar(bitPattern: UInt8(ascii: ":")))
                line.append(CChar(bitPattern: UInt8(ascii: " ")))
                for byte in header.value.utf8 { line.append(CChar(bitPattern: byte)) }
            }
            line.append(0)
            list = curl_slist_append(list, line)
        }
        if !request.body.isEmpty, !hasContentType {
            // libcurl would otherwise add application/x-www-form-urlencoded to a POST.
            list = curl_slist_append(list, "Content-Type:")
        }
        transfer.headerList = list
        set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(list))

        let method = request.method == "POST" ? "POST" : request.method.uppercased()
        switch method {
        case "GET":
            set(CURLOPT_HTTPGET, 1)
            set(CURLOPT_CUSTOMREQUEST, nil as String?)
        case "HEAD":
            set(CURLOPT_NOBODY, 1)
            set(CURLOPT_CUSTOMREQUEST, nil as String?)
        default:
            set(CURLOPT_NOBODY, 0)
            _ = herald_curl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            rc = request.body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies, so the request's array need not outlive this call.
                set(
                    CURLOPT_COPYPOSTFIELDS,
                    pointer: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start))
            }
            guard rc == CURLE_OK else { return rc }
            set(CURLOPT_CUSTOMREQUEST, method == "POST" ? nil : method)
        }
        return CURLE_OK
    }

    /// Case-insensitive `content-type` check without allocating.
    static func isContentType(_ name: String) -> Bool {
        let expected = "content-type".utf8
        guard name.utf8.count == expected.count else { return false }
        return zip(name.utf8, expected).allSatisfy { ($0 | 0x20) == $1 }
    }

    /// Drops per-request pointers before the handle goes back to the idle pool.
    func clearRequestState() {
        set(CURLOPT_HTTPHEADER, pointer: nil)
        set(CURLOPT_WRITEDATA, pointer: nil)
        set(CURLOPT_HEADERDATA, pointer: nil)
        set(CURLOPT_PREREQDATA, pointer: nil)
        set(CURLOPT_RESOLVER_START_DATA, pointer: nil)
        set(CURLOPT_OPENSOCKETDATA, pointer: nil)
    }

    /// `duration` in milliseconds for a `long` option: 0 for a negative one, saturating.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (scaled, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        guard !overflow else { return Int(Int32.max) }
        return min(Int(Int32.max), scaled + Int(attoseconds / 1_000_000_000_000_000))
    }
}
