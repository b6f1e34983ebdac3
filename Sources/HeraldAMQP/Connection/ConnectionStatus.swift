import HeraldCore
import HeraldSystem

/// What async callers may know about the connection thread: connected or not,
/// which connection, and whether it stopped. Shared under a `Locked`.
final class ConnectionStatus: Sendable {
    private struct State {
        var connected = false
        var generation: UInt64 = 0
        var node: String?
        var stopped: AMQPError?? = nil
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = Locked(State())

    var isConnected: Bool { state.withLock { $0.connected } }
    var generation: UInt64 { state.withLock { $0.generation } }
    /// The node (`host:port`) connected to now, or last.
    var node: String? { state.withLock { $0.node } }

    func connected(generation: UInt64, node: String) {
        let waiters = state.withLock { state in
            state.connected = true
            state.generation = generation
            state.node = node
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func disconnected() { state.withLock { $0.connected = false } }

    func stopped(_ failure: AMQPError?) {
        let waiters = state.withLock { state in
            state.connected = false
            state.stopped = .some(failure)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        let error = failure ?? AMQPError(.shutdown, operation: "connect", isRetryable: false)
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// Waits until connected; throws when the connection stopped instead.
    func waitUntilConnected() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, AMQPError>? = state.withLock { state in
                if state.connected { return .success(()) }
                if let stopped = state.stopped {
                    return .failure(stopped ?? AMQPError(.shutdown, operation: "connect", isRetryable: false))
                }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }
}
