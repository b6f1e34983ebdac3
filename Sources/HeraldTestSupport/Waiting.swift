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
/// when it produces nil or takes longer (it is then cancelled).
public func within<T: Sendable>(
    _ timeout: Duration, _ what: String,
    _ body: @escaping @Sendable () async throws -> T?
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TestFailure("no \(what) within \(timeout)")
        }
        return value
    }
}
