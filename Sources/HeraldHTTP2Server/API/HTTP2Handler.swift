/// Answers request streams. The server calls `handle` on its event-loop thread
/// once per complete request (headers and body received).
///
/// - Important: `handle` runs on the event loop: it must not block. Answer
///   synchronously through the responder (fastest), later with
///   `respond(_:after:)`, or from any task/thread at any time; each of those
///   is non-blocking.
public protocol HTTP2Handler: Sendable {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder)
}
