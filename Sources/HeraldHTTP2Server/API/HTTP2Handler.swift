/// Answers requests. The server calls `handle` on its event-loop thread
/// once per complete request (headers and body received), whether it came as
/// an HTTP/2 stream or over HTTP/1.1 (`request.httpVersion`).
///
/// - Important: `handle` runs on the event loop: it must not block. Answer
///   synchronously through the responder (fastest), later with
///   `respond(_:after:)`, or from any task/thread at any time; each of those
///   is non-blocking.
public protocol HTTP2Handler: Sendable {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder)

    /// The SETTINGS_MAX_CONCURRENT_STREAMS a new HTTP/2 connection advertises
    /// in its first SETTINGS (called on the loop thread once the connection
    /// is known to speak HTTP/2); nil for the configuration's
    /// `maxConcurrentStreams`. Change it later with
    /// `HTTP2Responder.setMaxConcurrentStreams(_:)`. Defaults to nil.
    func maxConcurrentStreams(forNewConnection connectionID: UInt64) -> Int?
}

extension HTTP2Handler {
    public func maxConcurrentStreams(forNewConnection connectionID: UInt64) -> Int? { nil }
}
