import Foundation
import HeraldCore
import HeraldSystem

/// The local three-node RabbitMQ cluster of `scripts/rabbitmq cluster`
/// (herald-c1..3@localhost on 127.0.0.1:5701-5703), for failover tests.
///
/// There is one cluster per checkout, and `swift test` runs suites of every
/// test target at once in one process, so suites take turns at it (`withTurn`,
/// which the `.cluster` trait uses): one suite at a time stops and starts
/// nodes. A turn starts the nodes that are down; the turn that ends with no
/// suite waiting stops the cluster.
public enum ClusterBroker {
    public static let nodes = 1...3

    public static func port(_ node: Int) -> Int { 5700 + node }
    /// The node as `AMQPConnection.connectedNode` and `/readyz` name it.
    public static func address(_ node: Int) -> String { "127.0.0.1:\(port(node))" }
    public static func url(_ node: Int) -> String { "amqp://guest:guest@\(address(node))/%2f" }
    /// The node whose `address` is `address`, if it is one of the cluster's.
    public static func node(at address: String) -> Int? { nodes.first { Self.address($0) == address } }

    /// Stops node `node` politely (its clients see the connection closed); returns once its VM has exited.
    public static func stop(_ node: Int) async throws {
        down.withLock { _ = $0.insert(node) }
        try await script(["cluster", "stop", "\(node)"])
    }

    /// Kills node `node`'s VM (its clients' sockets die without a close).
    public static func kill(_ node: Int) async throws {
        down.withLock { _ = $0.insert(node) }
        try await script(["cluster", "kill", "\(node)"])
    }

    /// Starts node `node` again; returns once it is back in the cluster and accepts AMQP.
    public static func restart(_ node: Int) async throws {
        try await script(["cluster", "restart", "\(node)"])
        down.withLock { _ = $0.remove(node) }
    }

    /// Starts again every node `stop` or `kill` took away and `restart` did not bring back.
    public static func restartStopped() async throws {
        for node in down.withLock({ $0.sorted() }) { try await restart(node) }
    }

    /// The node that leads quorum queue `queue` now, asked of node `via` (a node that is up).
    public static func leader(of queue: String, via node: Int) async throws -> Int {
        let output = try await ScriptRunner.run(
            ScriptRunner.rabbitmqScript,
            [
                "cluster", "ctl", "\(node)", "list_queues", "--quiet", "--no-table-headers", "name", "leader",
            ])
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.count == 2, fields[0] == queue,
                let leader = nodes.first(where: { fields[1] == "herald-c\($0)@localhost" })
            {
                return leader
            }
        }
        throw TestFailure("no leader of \(queue) in: \(output)")
    }

    /// Runs `body` while this task has its turn at the cluster, with every node
    /// up at the start. Afterwards every node is started again (so the next
    /// turn, or `cluster stop`, finds them in order), and the cluster is
    /// stopped unless another suite waits for its turn. Nested calls (a suite
    /// within a suite) run in the turn they are in.
    public static func withTurn(_ body: @Sendable () async throws -> Void) async throws {
        if inTurn { return try await body() }
        await turns.acquire()
        do {
            try await script(["cluster", "start"])
        } catch {
            turns.release()
            throw error
        }
        var failure: (any Error)?
        do {
            try await $inTurn.withValue(true) { try await body() }
        } catch {
            failure = error
        }
        do {
            try await script(["cluster", "start"])
            down.withLock { $0.removeAll() }
            if !turns.othersWaiting { try await script(["cluster", "stop"]) }
        } catch {
            failure = failure ?? error
        }
        turns.release()
        if let failure { throw failure }
    }

    @TaskLocal private static var inTurn = false
    private static let turns = Turns()
    /// Nodes stopped or killed and not restarted since.
    private static let down = Locked<Set<Int>>([])

    private static func script(_ arguments: [String]) async throws {
        try await ScriptRunner.run(ScriptRunner.rabbitmqScript, arguments)
    }
}

/// Turns at one resource, first come first served.
private final class Turns: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Returns once the caller has the turn.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.taken {
                    state.taken = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Whether someone waits for the turn held now.
    var othersWaiting: Bool { state.withLock { !$0.waiting.isEmpty } }

    /// Hands the turn to the first in line, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
