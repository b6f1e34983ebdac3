import HeraldSystem

/// Why a request got no response, with what a caller needs to act on it:
/// the host, what failed (with libcurl's code under the libcurl engine), and
/// whether retrying can help.
///
/// A response with any HTTP status is not an error; only transport failures
/// (connection, TLS, timeout, stream reset, GOAWAY, limits, cancellation) are.
public struct HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure; decides `isRetryable`.
    public enum Kind: String, Sendable, Equatable {
        /// No connection could be made (refused, unreachable, DNS).
        case connectFailed
        /// The connection or stream died mid-request (reset, GOAWAY, HTTP/2 stream error).
        case connectionLost
        /// The request did not finish within its timeout.
        case timeout
        /// The TLS handshake failed for a reason other than the server's certificate.
        case tlsHandshakeFailed
        /// The server's certificate was not trusted or did not match the host.
        case certificateRejected
        /// Our own TLS material (CA file, client certificate, key, password) is unusable.
        case tlsConfiguration
        /// The response's header fields exceeded `maxResponseHeaderBytes`, or
        /// its body `maxResponseBodyBytes`.
        case responseTooLarge
        /// The server did not agree to HTTP/2 (ALPN chose another protocol or
        /// none); APNs and FCM speak nothing else, so nothing is sent.
        case http2Unavailable
        /// The configuration's `EgressPolicy` refused the destination address;
        /// no connection was made. The message names the rule.
        case egressRefused
        /// The URL or method cannot be sent.
        case invalidRequest
        /// The waiting task was cancelled.
        case cancelled
        /// The client was shut down before the request finished.
        case shutdown
        /// The sender already has `HTTPClientFairness.maxQueuedPerOrigin`
        /// requests to this origin in flight or queued; nothing was sent.
        case originQueueFull
        /// Anything else the engine reported (an OpenSSL, nghttp2, epoll or libcurl failure).
        case other
    }

    public let kind: Kind
    /// `host:port` of the URL (empty when the URL could not be parsed).
    public let host: String
    /// libcurl's `CURLcode`, when the failure came from libcurl.
    public let curlCode: Int?
    /// What failed: the engine's explanation (under libcurl, its error buffer
    /// text or `curl_easy_strerror`).
    public let message: String
    /// The request had gone to the connection (written, at least in part)
    /// when it failed: the server may have acted on it.
    public let requestWritten: Bool

    public init(kind: Kind, host: String, curlCode: Int? = nil, message: String, requestWritten: Bool = false) {
        self.kind = kind
        self.host = host
        self.curlCode = curlCode
        self.message = message
        self.requestWritten = requestWritten
    }

    /// The request was written and its answer never came (a timeout, or the
    /// connection or stream lost): the server may have accepted it, so
    /// sending it again may duplicate it.
    public var answerLost: Bool {
        requestWritten && (kind == .timeout || kind == .connectionLost)
    }

    /// Whether the same request may succeed if sent again (on a new connection).
    public var isRetryable: Bool {
        switch kind {
        case .connectFailed, .connectionLost, .timeout, .tlsHandshakeFailed, .shutdown, .originQueueFull: true
        case .certificateRejected, .tlsConfiguration, .responseTooLarge, .http2Unavailable, .egressRefused,
            .invalidRequest, .cancelled,
            .other:
            false
        }
    }

    /// A response whose header fields (names and values, pseudo-headers and
    /// interim responses included) went past `limit` bytes.
    static func responseHeadersTooLarge(host: String, limit: Int, curlCode: Int? = nil) -> HTTPClientError {
        HTTPClientError(
            kind: .responseTooLarge, host: host, curlCode: curlCode, message: "response headers exceed \(limit) bytes")
    }

    /// A response whose body went past `limit` bytes.
    static func responseBodyTooLarge(host: String, limit: Int, curlCode: Int? = nil) -> HTTPClientError {
        HTTPClientError(
            kind: .responseTooLarge, host: host, curlCode: curlCode, message: "response body exceeds \(limit) bytes")
    }

    /// A request of a sender that already has `limit` requests to `host` in
    /// flight or queued (`HTTPClientFairness.maxQueuedPerOrigin`).
    static func originQueueFull(host: String, limit: Int) -> HTTPClientError {
        HTTPClientError(
            kind: .originQueueFull, host: host,
            message:
                "\(limit) requests of this sender to \(host) are already in flight or queued (the per-origin cap); "
                + "nothing was sent, try again later")
    }

    /// A request whose timeout ran out before it had a connection: it waited
    /// `waitedNanoseconds` behind other requests, in the client's queue or in
    /// libcurl's for a connection or stream to its host, and nothing was sent.
    /// The one text for such a request, whichever queue it was in.
    static func queuedWithoutConnection(host: String, waitedNanoseconds: UInt64, timeout: Duration) -> HTTPClientError {
        HTTPClientError(
            kind: .timeout, host: host,
            message:
                "queued \(MonotonicClock.seconds(waitedNanoseconds)) behind other requests; no connection to \(host) "
                + "was free before the \(MonotonicClock.seconds(MonotonicClock.nanoseconds(timeout))) timeout, nothing was sent"
        )
    }

    /// A TLS connection on which ALPN did not select `h2`; `selected` is what it chose, if anything.
    static func http2Unavailable(host: String, selected: String?) -> HTTPClientError {
        let chose = selected.map { "ALPN selected '\($0)'" } ?? "no protocol was selected in ALPN"
        return HTTPClientError(
            kind: .http2Unavailable, host: host,
            message: "the server did not agree to HTTP/2 (\(chose)); APNs and FCM require it, nothing was sent")
    }

    /// A destination the egress policy refused: nothing was sent.
    public static func egressRefused(host: String, _ refusal: EgressRefusal) -> HTTPClientError {
        HTTPClientError(kind: .egressRefused, host: host, message: refusal.rule)
    }

    public var description: String {
        let code = curlCode.map { ", curl \($0)" } ?? ""
        return "HTTP request to \(host) failed (\(kind.rawValue)\(code)): \(message)"
            + (isRetryable ? " [retryable]" : " [not retryable]")
    }
}
