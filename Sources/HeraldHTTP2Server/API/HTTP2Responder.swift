import Synchronization

/// The handle a handler answers one request (an HTTP/2 stream, or an HTTP/1.1
/// request) through.
///
/// Safe to use from any thread or task: every call becomes an action in the
/// event loop's inbox, so the nghttp2 session is only touched by its thread.
/// Over HTTP/1.1, `reset` closes the connection without an answer and
/// `goAway` makes the answer the connection's last (`connection: close`).
/// A stream is answered at most once; later calls return `false`. A responder
/// dropped without an answer resets its stream (`INTERNAL_ERROR`), so a
/// forgetful handler cannot leave a client waiting forever.
public final class HTTP2Responder: Sendable {
    public let connectionID: UInt64
    public let streamID: Int32
    private let inbox: ServerInbox
    private let answered = Atomic<Bool>(false)

    init(inbox: ServerInbox, connectionID: UInt64, streamID: Int32) {
        self.inbox = inbox
        self.connectionID = connectionID
        self.streamID = streamID
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            inbox.post(.reset(connectionID: connectionID, streamID: streamID, code: .internalError))
        }
    }

    /// Sends `response` now.
    @discardableResult
    public func respond(_ response: HTTP2Response) -> Bool {
        guard claim() else { return false }
        inbox.post(.respond(connectionID: connectionID, streamID: streamID, response: response, delay: nil))
        return true
    }

    /// Sends `response` once `delay` has passed, without blocking anything:
    /// the event loop keeps a timer (latency injection for the simulator).
    @discardableResult
    public func respond(_ response: HTTP2Response, after delay: Duration) -> Bool {
        guard claim() else { return false }
        inbox.post(.respond(connectionID: connectionID, streamID: streamID, response: response, delay: delay))
        return true
    }

    /// Resets the stream with RST_STREAM instead of answering it.
    @discardableResult
    public func reset(_ code: HTTP2ErrorCode = .cancel) -> Bool {
        guard claim() else { return false }
        inbox.post(.reset(connectionID: connectionID, streamID: streamID, code: code))
        return true
    }

    /// Closes this stream's whole connection at once with a TCP reset (no
    /// GOAWAY, no answer to any of its streams), as a crashed server would.
    @discardableResult
    public func abortConnection() -> Bool {
        guard claim() else { return false }
        inbox.post(.abortConnection(connectionID: connectionID))
        return true
    }

    /// Sends GOAWAY on this stream's connection. Streams up to `lastStreamID`
    /// (default: this one) are still answered; later ones are refused and the
    /// connection closes once the remaining streams are done. Does not answer
    /// this stream.
    public func goAway(lastStreamID: Int32? = nil, code: HTTP2ErrorCode = .noError, debugData: [UInt8] = []) {
        inbox.post(
            .goAway(
                connectionID: connectionID, lastStreamID: lastStreamID ?? streamID, code: code, debugData: debugData))
    }

    /// Advertises `limit` as this connection's SETTINGS_MAX_CONCURRENT_STREAMS
    /// from now on (a SETTINGS frame; nothing over HTTP/1.1). Streams above
    /// it are refused while the client has not acknowledged it; above an
    /// acknowledged limit nghttp2 ends the connection (GOAWAY PROTOCOL_ERROR).
    public func setMaxConcurrentStreams(_ limit: Int) {
        inbox.post(.setMaxConcurrentStreams(connectionID: connectionID, limit: limit))
    }

    private func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }
}
