import Testing

/// Runs a suite (or a single test) inside the scope of a broker of its own:
/// started before, stopped after, even on failure. Optionally, each test of the
/// suite is followed by `afterEachTest`, which puts back what the test took
/// away (nodes it stopped) whether it passed or not.
public struct BrokerScopeTrait: SuiteTrait, TestTrait, TestScoping {
    /// Runs `body` (the suite's tests, or one test) within the broker's scope.
    /// With `afterEachTest`, each test of the suite runs in it too, within the
    /// suite's: `scope` must then run a nested `body` as it is.
    let scope: @Sendable (_ body: @Sendable () async throws -> Void) async throws -> Void
    let afterEachTest: (@Sendable () async throws -> Void)?

    public init(
        scope: @escaping @Sendable (_ body: @Sendable () async throws -> Void) async throws -> Void,
        afterEachTest: (@Sendable () async throws -> Void)? = nil
    ) {
        self.scope = scope
        self.afterEachTest = afterEachTest
    }

    /// `stop` also runs after a failure, so it must first put the broker back
    /// into a state it can be stopped from.
    public init(start: @escaping @Sendable () async throws -> Void, stop: @escaping @Sendable () async throws -> Void) {
        self.init(scope: { body in
            try await start()
            do {
                try await body()
            } catch {
                try? await stop()
                throw error
            }
            try await stop()
        })
    }

    /// Applied to the suite's tests too when there is something to do after each.
    public var isRecursive: Bool { afterEachTest != nil }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite == (testCase == nil) ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite { return try await scope(function) }
        try await scope { [afterEachTest] in
            do {
                try await function()
            } catch {
                try? await afterEachTest?()
                throw error
            }
            try await afterEachTest?()
        }
    }
}

extension Trait where Self == BrokerScopeTrait {
    /// Runs the suite (or test) in its turn at the local three-node cluster
    /// (`ClusterBroker.withTurn`), and starts again after each test the nodes
    /// it stopped or killed.
    public static var cluster: Self {
        BrokerScopeTrait(
            scope: { body in try await ClusterBroker.withTurn(body) },
            afterEachTest: { try await ClusterBroker.restartStopped() })
    }
}
