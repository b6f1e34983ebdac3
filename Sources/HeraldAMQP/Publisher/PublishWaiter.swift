import Synchronization

/// The caller waiting for a batch of publishes to be confirmed: one
/// continuation for any number of messages, resumed once, when the last of
/// them is settled (with the first failure, if any).
///
/// One event's outcomes, retry and dead letter are published as one batch, so
/// the caller is woken once per event instead of once per message, and needs no
/// child task per message. The connection thread settles each message once.
final class PublishWaiter: Sendable {
    private struct State {
        var remaining: Int
        var failure: AMQPError?
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private let state: Mutex<State>

    /// Waits for `count` settlements (at least one) before resuming `continuation`.
    init(count: Int, continuation: CheckedContinuation<Void, any Error>) {
        state = Mutex(State(remaining: max(1, count), continuation: continuation))
    }

    /// Settles one message of the batch: `failure` nil when the broker confirmed it.
    func settle(_ failure: AMQPError?) {
        let finished: (CheckedContinuation<Void, any Error>, AMQPError?)? = state.withLock { state in
            if state.failure == nil { state.failure = failure }
            state.remaining -= 1
            guard state.remaining == 0, let continuation = state.continuation else { return nil }
            state.continuation = nil
            return (continuation, state.failure)
        }
        guard let (continuation, failure) = finished else { return }
        if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
    }

    func resume() { settle(nil) }
    func resume(throwing error: AMQPError) { settle(error) }
}
