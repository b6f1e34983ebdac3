import HeraldCore
import HeraldSystem

/// The meeting point of a waiting `send` and the loop thread: holds the
/// continuation, and makes sure exactly one of completion, cancellation or
/// shutdown resumes it. (That guarantee, kept under the lock, is why an
/// unchecked continuation is safe here; it saves an allocation per request.)
final class PendingRequest: Sendable {
    private enum State {
        case created
        case waiting(UnsafeContinuation<HTTPClientResponse, any Error>)
        case cancelledEarly
        case finished
    }

    let id: UInt64
    /// The request's URL, for the host named in errors built here.
    let url: String
    /// Whether the waiting task runs on `HTTPClientExecutor` (resumed straight from the loop).
    let resumesOnLoop: Bool
    private let state = Locked(State.created)

    init(id: UInt64, url: String, resumesOnLoop: Bool) {
        self.id = id
        self.url = url
        self.resumesOnLoop = resumesOnLoop
    }

    /// The error a cancelled request fails with.
    var cancelledError: HTTPClientError {
        HTTPClientError(kind: .cancelled, host: URLHost.hostAndPort(of: url), message: "the waiting task was cancelled")
    }

    /// Stores the continuation; returns false (and resumes it with `cancelled`)
    /// when the task was cancelled before it got here.
    func install(_ continuation: UnsafeContinuation<HTTPClientResponse, any Error>) -> Bool {
        let proceed = state.withLock { state -> Bool in
            guard case .created = state else { state = .finished; return false }
            state = .waiting(continuation)
            return true
        }
        if !proceed { continuation.resume(throwing: cancelledError) }
        return proceed
    }

    /// Resumes the waiter with `result` unless something else already did; returns whether it did.
    @discardableResult
    func finish(_ result: Result<HTTPClientResponse, HTTPClientError>) -> Bool {
        let continuation = state.withLock { state -> UnsafeContinuation<HTTPClientResponse, any Error>? in
            switch state {
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .created:
                state = .finished
                return nil
            case .cancelledEarly, .finished:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation.resume(with: result.mapError { $0 as any Error })
        return true
    }

    /// Called from the task's cancellation handler, on any thread.
    func cancel() -> Bool {
        let continuation = state.withLock { state -> UnsafeContinuation<HTTPClientResponse, any Error>? in
            switch state {
            case .created:
                state = .cancelledEarly
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .cancelledEarly, .finished:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation.resume(throwing: cancelledError)
        return true
    }

    var isFinished: Bool {
        state.withLock { if case .waiting = $0 { false } else { true } }
    }
}
