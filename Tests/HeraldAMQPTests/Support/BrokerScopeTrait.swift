import Testing

/// Brings up a broker of a suite's own before the suite and takes it down
/// after, even when the suite fails.
struct BrokerScopeTrait: SuiteTrait, TestScoping {
    let start: @Sendable () async throws -> Void
    /// Also runs after a failure, so it first puts the broker back into a
    /// state it can be stopped from (thawed, every node up).
    let stop: @Sendable () async throws -> Void

    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await start()
        do {
            try await function()
        } catch {
            try? await stop()
            throw error
        }
        try await stop()
    }
}

extension Trait where Self == BrokerScopeTrait {
    /// Runs the suite against its own RabbitMQ node (see `DisruptiveBroker`).
    static var ownBroker: Self {
        BrokerScopeTrait(start: { try await DisruptiveBroker.start() }, stop: {
            try? await DisruptiveBroker.thaw()
            try await DisruptiveBroker.stop()
        })
    }

    /// Runs the suite against the local three-node cluster (see `ClusterBroker`);
    /// every node is started again before all stop, so the next start finds them in order.
    static var cluster: Self {
        BrokerScopeTrait(start: { try await ClusterBroker.start() }, stop: {
            try await ClusterBroker.start()
            try await ClusterBroker.stopAll()
        })
    }
}
