/// Work posted to the event loop from any thread; applied only on the loop thread.
enum LoopAction: Sendable {
    case respond(connectionID: UInt64, streamID: Int32, response: HTTP2Response, delay: Duration?)
    case reset(connectionID: UInt64, streamID: Int32, code: HTTP2ErrorCode)
    case goAway(connectionID: UInt64, lastStreamID: Int32, code: HTTP2ErrorCode, debugData: [UInt8])
    /// A SETTINGS frame with a new SETTINGS_MAX_CONCURRENT_STREAMS.
    case setMaxConcurrentStreams(connectionID: UInt64, limit: Int)
    /// Stop accepting; GOAWAY every connection and wait for open streams (graceful) or close at once.
    case shutdown(graceful: Bool)
    /// Close every connection abruptly (TCP RST), as a crashed server would; keep listening.
    case abortConnections
    /// Close one connection abruptly (TCP RST).
    case abortConnection(connectionID: UInt64)
}

/// What the loop's timer heap holds: a delayed answer, the end of a
/// lingering close's wait for the client, a connection's deadline check
/// (header and idle timeouts), or the end of an accept back-off.
enum LoopTimer {
    case respond(connectionID: UInt64, streamID: Int32, response: HTTP2Response)
    case endLinger(connectionID: UInt64)
    /// The connection's one pending check, due `at` (an older one left in the heap is stale).
    case checkDeadlines(connectionID: UInt64, at: UInt64)
    /// Poll the listening socket again after `accept` failed for want of resources.
    case resumeAccepting
}
