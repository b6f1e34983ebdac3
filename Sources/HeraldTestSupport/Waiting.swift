/// Polls `condition` every 20 ms until it holds; false if it still does not
/// after `timeout` (checked once more at the end).
public func poll(timeout: Duration, until condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// The value `body` produces, or `TestFailure("no <what> within <timeout>")`
/// when it produces nil or takes longer (it is then cancelled).
public func within<T: Sendable>(_ timeout: Duration, _ what: String,
                                _ body: @escaping @Sendable () async throws -> T?) async throws -> T {
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
