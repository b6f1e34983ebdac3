import CCurl

/// The one place that turns a libcurl `CURLcode` into an `HTTPClientError.Kind`.
enum CurlErrorClassifier {
    static func kind(of code: CURLcode) -> HTTPClientError.Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY:
            return .connectFailed
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_PARTIAL_FILE, CURLE_SSL_SHUTDOWN_FAILED:
            return .connectionLost
        case CURLE_SSL_CONNECT_ERROR:
            return .tlsHandshakeFailed
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .certificateRejected
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR:
            return .tlsConfiguration
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            return .invalidRequest
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .other
        }
    }

    /// libcurl's static description of `code`, used when the error buffer is empty.
    static func text(of code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
