import CNGHTTP2
import HeraldSystem

/// The listener's per-connection limits as the connection sees them: the
/// HTTP/2 header list (`maxHeaderListBytes`), rapid resets
/// (`rapidResetLimit`), and what its deadlines (`headerTimeout`,
/// `idleTimeout`) say when the loop's timer asks.
extension ServerConnection {
    /// What a deadline check finds.
    enum DeadlineCheck {
        /// Close the connection now, for `reason`.
        case close(reason: String)
        /// Idle HTTP/2: send GOAWAY(NO_ERROR); the connection closes once it is written.
        case goAwayIdle
        /// Nothing is due; check again then.
        case checkAgain(at: UInt64)
    }

    /// Counts one decoded field of `stream` against `maxHeaderListBytes`.
    /// Returns false once the list is over it: the field is not kept, nor
    /// any later one, and the stream is answered 431. An HPACK bomb (small
    /// references to a large table entry) costs a counter, not memory.
    func admitHeaderField(of stream: RequestStream, nameLength: Int, valueLength: Int) -> Bool {
        stream.headerListBytes += nameLength + valueLength + 32
        if stream.headerListTooLarge { return false }
        guard stream.headerListBytes > loop.configuration.maxHeaderListBytes else { return true }
        stream.headerListTooLarge = true
        stream.headers = []
        loop.logger.debug(
            "HTTP/2 header list over the limit; the stream is answered 431",
            [
                "connection": .int(Int(id)), "stream": .int(Int(stream.id)),
                "limit": .int(loop.configuration.maxHeaderListBytes),
            ])
        return false
    }

    /// The client's SETTINGS: the HTTP/2 client preface is complete.
    func receiveSettings() {
        headerDeadline = nil
    }

    /// A RST_STREAM from the client. One for a stream the server had not
    /// answered yet spends from `resetBudget`; with none left the
    /// connection gets GOAWAY(ENHANCE_YOUR_CALM) and closes once it is written.
    func receiveReset(streamID: Int32) {
        resetsReceived += 1
        guard let stream = streams[streamID], !stream.answered, let session else { return }
        unansweredResetsReceived += 1
        let now = MonotonicClock.now()
        guard !resetBudget.spend(now: now), closeDeadline == nil else { return }
        goAwayLastStreamID = min(lastProcessedStreamID, goAwayLastStreamID ?? Int32.max)
        // GOAWAY with the last stream nghttp2 processed; nghttp2 reads nothing more and wants to write nothing after it.
        _ = nghttp2_session_terminate_session(session, HTTP2ErrorCode.enhanceYourCalm.rawValue)
        closeAfterLastFrame(now: now)
        loop.logger.warning(
            "rapid reset: the client reset too many unanswered streams; GOAWAY(ENHANCE_YOUR_CALM)",
            [
                "connection": .int(Int(id)), "unanswered_resets": .int(unansweredResetsReceived),
                "burst": .int(loop.configuration.rapidResetLimit.burst),
                "per_second": .int(loop.configuration.rapidResetLimit.perSecond),
            ])
    }

    /// The server's last frame is queued: the connection is closed once it
    /// is written, and after `lingerTimeout` at the latest (a client that
    /// does not read cannot keep it).
    func closeAfterLastFrame(now: UInt64) {
        let deadline = MonotonicClock.deadline(after: loop.configuration.lingerTimeout, from: now)
        closeDeadline = deadline
        loop.scheduleDeadlineCheck(for: self, at: deadline)
    }

    /// Whether nothing is in progress: no HTTP/2 stream open, no HTTP/1.1
    /// request with the handler or partly received.
    var isIdle: Bool {
        if let http1 { return http1.isReading && !http1.parser.hasBufferedInput }
        if session != nil { return streams.isEmpty }
        return true
    }

    /// The deadlines at `now`: the close deadline, the header deadline, then
    /// idleness (`idleTimeout` nanoseconds since `lastActivityAt`). Nil for a
    /// lingering connection, whose own timer ends it.
    func deadlineCheck(now: UInt64, idleTimeout: UInt64) -> DeadlineCheck? {
        if let closeDeadline {
            return now >= closeDeadline
                ? .close(reason: "its last frame was not taken in time") : .checkAgain(at: closeDeadline)
        }
        if isLingering { return nil }
        if let headerDeadline, now >= headerDeadline { return .close(reason: headerTimeoutReason) }
        let idle = isIdle
        if idle, now >= MonotonicClock.later(lastActivityAt, by: idleTimeout) {
            return session != nil ? .goAwayIdle : .close(reason: "idle timeout")
        }
        // Busy: look again after a whole idle timeout; idleness starts no earlier than now.
        let idleDeadline = MonotonicClock.later(idle ? lastActivityAt : now, by: idleTimeout)
        return .checkAgain(at: min(headerDeadline ?? UInt64.max, idleDeadline))
    }

    /// What the header timeout cut short.
    private var headerTimeoutReason: String {
        if !handshakeComplete { return "header timeout: TLS handshake not complete" }
        if session != nil { return "header timeout: no HTTP/2 client preface" }
        if http1 != nil { return "header timeout: HTTP/1.1 request head not complete" }
        return "header timeout: no request"
    }
}
