import HeraldCore
import HeraldHTTP2Server
import HeraldSystem

/// Holds the responders of streams a `hang` fault leaves unanswered.
///
/// An `HTTP2Responder` dropped unanswered resets its stream (so a forgetful
/// handler cannot leave a client waiting), which would turn a hang into a
/// reset; kept here, the stream stays open until the client gives up (its
/// timeout, RST_STREAM) or the connection closes. The server does not tell
/// its handler when a connection closes, so responders are kept until
/// `capacity` is reached; then the oldest is let go, which resets its stream
/// if it is still open (answering nothing on a closed stream or connection
/// is harmless).
final class HungStreams: Sendable {
    private let responders: Locked<Ring<HTTP2Responder>>

    init(capacity: Int = 10_000) {
        responders = Locked(Ring(capacity: max(1, capacity)))
    }

    /// Keeps `responder` alive without answering it.
    func hold(_ responder: HTTP2Responder) {
        // The responder let go (if any) is released outside the lock: its deinit posts a reset.
        let released = responders.withLock { $0.append(responder) }
        _ = released
    }

    /// How many streams are held.
    var count: Int { responders.withLock { $0.count } }
}
