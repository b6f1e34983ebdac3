import HeraldCore
import HeraldSystem

/// Whoever waits for a batch of publishes to be confirmed: one continuation
/// or callback for any number of messages, told once, when the last of them is
/// settled (with the first failure, if any).
///
/// One event's outcomes, retry and dead letter are published as one batch, so
/// the caller is woken once per event instead of once per message, and needs no
/// child task per message. The connection thread settles each message once.
final class PublishWaiter: Sendable {
    /// How the batch's end is reported.
    enum Completion: Sendable {
        /// A task awaiting `publish(_:mandatory:)`.
        case continuation(CheckedContinuation<Void, any Error>)
        /// `publish(_:mandatory:whenSettled:)`: called on the thread that settles
        /// the last message — the connection's, or the caller's if it has stopped.
        case callback(@Sendable (AMQPError?) -> Void)
    }

    private struct State {
        var remaining: Int
        var failure: AMQPError?
        var completion: Completion?
    }

    private let state: Locked<State>

    /// Waits for `count` settlements (at least one) before resuming `continuation`.
    convenience init(count: Int, continuation: CheckedContinuation<Void, any Error>) {
        self.init(count: count, completion: .continuation(continuation))
    }

    /// Waits for `count` settlements (at least one) before reporting to `completion`.
    init(count: Int, completion: Completion) {
        state = Locked(State(remaining: max(1, count), completion: completion))
    }

    /// Settles one message of the batch: `failure` nil when the broker confirmed it.
    func settle(_ failure: AMQPError?) {
        let finished: (Completion, AMQPError?)? = state.withLock { state in
            if state.failure == nil { state.failure = failure }
            state.remaining -= 1
            guard state.remaining == 0, let completion = state.completion else { return nil }
            state.completion = nil
            return (completion, state.failure)
        }
        guard let (completion, failure) = finished else { return }
        switch completion {
        case .continuation(let continuation):
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        case .callback(let body):
            body(failure)
        }
    }

    func resume() { settle(nil) }
    func resume(throwing error: AMQPError) { settle(error) }
}
