import HeraldSystem
/// Polls `condition` until it holds; false if it still does not after
/// `timeout` (checked once more at the end). The one way tests wait for
/// something they cannot be told about: a counter, a log line, a file, a
/// broker's count. `timeout` is a bound only a failure reaches, never an
/// expected time: a loaded ThreadSanitizer run must fit in it.
public func eventually(
    timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}

/// `eventually`, failing with `TestFailure("timed out waiting until <what>")`
/// instead of returning false.
public func eventually(
    _ what: String, timeout: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    guard try await eventually(timeout: timeout, condition) else {
        throw TestFailure("timed out waiting until \(what)")
    }
}

/// The value `body` produces, or `TestFailure("no <what> within <timeout>")`
/// when it produces nil or takes longer. On the timeout `body` is cancelled
/// and the failure thrown at once, without waiting for `body` to end: a body
/// stuck in a wait that ignores cancellation fails its test instead of
/// hanging the run (it is left behind).
public func within<T: Sendable>(
    _ timeout: Duration, _ what: String,
    _ body: @escaping @Sendable () async throws -> T?
) async throws -> T {
    let answer = FirstAnswer<T?>()
    let work = Task {
        do { answer.give(.success(try await body())) } catch { answer.give(.failure(error)) }
    }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        answer.give(.failure(TestFailure("no \(what) within \(timeout)")))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    let value = try await withTaskCancellationHandler {
        try await answer.value
    } onCancel: {
        answer.give(.failure(CancellationError()))
    }
    guard let value else { throw TestFailure("no \(what) within \(timeout)") }
    return value
}

/// The first of several competing results, handed to the one waiter.
private final class FirstAnswer<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }
    private let state = Locked(State())

    /// Keeps `result` if it is the first; later ones are ignored.
    func give(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<T, any Error>? = state.withLock { state in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}

/// The end of `task` — a run loop the test has told to stop — or
/// `TestFailure("no end of <what> within <timeout>")`: a loop that never
/// stops fails its test instead of hanging the run (it is left behind).
@discardableResult
public func awaitEnd<T: Sendable>(
    of task: Task<T, any Error>, _ what: String, timeout: Duration = .seconds(120)
) async throws -> T {
    try await within(timeout, "end of \(what)") { try await task.value }
}

/// `awaitEnd(of:_:timeout:)` for a task that cannot fail.
public func awaitEnd<T: Sendable>(
    of task: Task<T, Never>, _ what: String, timeout: Duration = .seconds(120)
) async throws -> T {
    try await within(timeout, "end of \(what)") { await task.value }
}
