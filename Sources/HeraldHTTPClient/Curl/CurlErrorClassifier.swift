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

    /// Whether `transfer`, which ran out of time, never got a connection:
    /// libcurl neither resolved its host (nor found it cached), nor started
    /// resolving it, nor connected, nor sent anything. It waited in libcurl's
    /// queue for a connection or stream to its host (the per-host connection
    /// limit, the stream limit) the whole time. libcurl reports such a
    /// transfer, when it leaves that queue, as `Failed to resolve host '…'
    /// with timeout after 0 ms` (its resolver refusing an already spent
    /// timeout), which names neither the wait nor its cause; the loop says
    /// `HTTPClientError.queuedWithoutConnection` instead.
    static func neverConnected(_ transfer: Transfer) -> Bool {
        !transfer.resolveStarted && !transfer.easy.reachedConnecting && !transfer.easy.reachedTransfer
    }

    /// libcurl's static description of `code`, used when the error buffer is empty.
    static func text(of code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }
}
