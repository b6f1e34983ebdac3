/// Where one HTTP/1.1 connection stands: requests are taken one at a time
/// and answered in order, so a connection holds at most one request the
/// handler has not answered. Owned by its `ServerConnection` on the loop thread.
final class HTTP1Exchange {
    /// The request the handler is answering: its number on the connection
    /// (the `streamID` its responder carries) and how its answer is written.
    struct Pending {
        let id: Int32
        /// HEAD: the answer's length is sent, not its body.
        let headOnly: Bool
        /// The client asked for `Connection: close`.
        let closeRequested: Bool
    }

    enum State {
        /// Taking in the next request (the socket is read).
        case reading
        /// A request is with the handler (the socket is not read meanwhile).
        case awaiting(Pending)
        /// Its answer arrived; it is written at the connection's next flush,
        /// so a GOAWAY posted right after it still adds `connection: close`.
        case answered(Pending, HTTP2Response)
        /// The last answer is queued: the connection closes once it is written.
        case closing
    }

    var parser: HTTP1RequestParser
    var state = State.reading
    /// Requests handed to the handler so far; the next one's id is one more.
    var lastRequestID: Int32 = 0
    /// GOAWAY, a graceful shutdown or `goAwayAfterStreams`: the current (or
    /// next) answer is the last and says `connection: close`.
    var closeAfterAnswer = false

    init(maxHeaderBytes: Int, maxBodyBytes: Int) {
        parser = HTTP1RequestParser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
    }

    var isReading: Bool {
        if case .reading = state { return true }
        return false
    }

    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }
}
