import Foundation
import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldSystem
import HeraldTestSupport
import Synchronization

/// What a test of Herald on the local three-node cluster works with: the
/// simulator as both providers, Herald instances on one quorum events queue,
/// and a results collector and an event feed on `steadyNode`, which the tests
/// never stop (neither follows a lost node).
final class ClusterScenario: Sendable {
    /// The node of the collector and the feed.
    static let steadyNode = 3

    let simulator: SimulatorHarness
    /// The names every instance shares.
    let names: ServiceConfig
    let prefetch: Int
    let results: ResultsCollector
    let feed: EventFeed
    private let amqpExtra: String
    private let services = Locked<[RunningService]>([])

    /// Runs `body` and then, even when it throws, stops the instances it
    /// started, starts again the nodes it stopped (a quorum queue is deleted
    /// on all its members) and deletes the queues.
    static func run(prefetch: Int = 64, amqpExtra: String = "", _ body: (ClusterScenario) async throws -> Void)
        async throws
    {
        let scenario = try await ClusterScenario(prefetch: prefetch, amqpExtra: amqpExtra)
        do {
            try await body(scenario)
        } catch {
            await scenario.finish()
            throw error
        }
        await scenario.finish()
    }

    private init(prefetch: Int, amqpExtra: String) async throws {
        simulator = try await SimulatorHarness()
        self.prefetch = prefetch
        self.amqpExtra = amqpExtra
        names = try ServiceConfig(
            simulator: simulator, queueType: "quorum", prefetch: prefetch,
            amqpURLs: ClusterBroker.nodes.map(ClusterBroker.url), amqpExtra: amqpExtra)
        results = try await ResultsCollector(prefix: names.prefix, url: ClusterBroker.url(Self.steadyNode))
        feed = try await EventFeed(url: ClusterBroker.url(Self.steadyNode), exchange: "\(names.prefix).events")
    }

    /// Starts an instance given `nodes`' addresses, tried in this order (one
    /// node: `amqp.url`; several: `amqp.urls`, not shuffled), and waits until it is ready.
    func startHerald(nodes: [Int]) async throws -> RunningService {
        let urls = nodes.map(ClusterBroker.url)
        let config = try ServiceConfig(
            simulator: simulator, queueType: "quorum", prefetch: prefetch, sharing: names,
            amqpURL: urls[0], amqpURLs: urls.count > 1 ? urls : [], amqpExtra: amqpExtra)
        // Info: the log then has "amqp connected" next to "amqp connection lost", to time reconnects.
        let running = RunningService(try config.load(), logLevel: .info)
        services.withLock { $0.append(running) }
        guard await eventually(timeout: .seconds(30), { running.service.health.isReady }) else {
            throw TestFailure(
                "herald on nodes \(nodes) is not ready: \(running.service.health.report) \(running.logs.lines)")
        }
        return running
    }

    /// The `Tally` keys (`event/provider/token`) of the feed's events `indices`.
    static func keys(_ indices: Range<Int>) -> Set<String> {
        Set(indices.map { "\(EventFeed.id($0))/fcm/\(EventFeed.token($0))" })
    }

    /// The outcomes of the feed's events `indices` so far.
    func tally(_ indices: Range<Int>) -> Tally { Tally(results.all, expected: Self.keys(indices)) }

    /// Notifications the simulator received beyond the first for their token, among the feed's events `indices`.
    func repeatedNotifications(_ indices: Range<Int>) -> Int {
        let tokens = Set(indices.map(EventFeed.token))
        var counts: [String: Int] = [:]
        for notification in simulator.recorder.notifications where tokens.contains(notification.target) {
            counts[notification.target, default: 0] += 1
        }
        return counts.values.reduce(0) { $0 + $1 - 1 }
    }

    /// Waits until every one of the feed's events `indices` has a terminal outcome
    /// (the default timeout leaves room for ThreadSanitizer: 35 events/s there).
    func waitUntilFinished(_ indices: Range<Int>, timeout: Duration = .seconds(180)) async -> Bool {
        let keys = Self.keys(indices)
        return await results.wait(timeout: timeout) { Tally($0, expected: keys).missing.isEmpty }
    }

    /// Waits until at least `count` delivered outcomes have arrived (repeats included).
    func waitUntilOutcomes(atLeast count: Int, timeout: Duration = .seconds(180)) async -> Bool {
        await results.wait(timeout: timeout) { $0.count(where: { $0.outcome.status == .delivered }) >= count }
    }

    /// The series of metric `name` as `/metrics` shows them: the labels (`{...}`, or empty) and the value.
    static func metric(_ name: String, of running: RunningService) -> [(labels: String, value: Int)] {
        running.service.metrics.registry.render().split(separator: "\n").compactMap { line in
            guard line.hasPrefix(name), let space = line.lastIndex(of: " "),
                let value = Int(line[line.index(after: space)...])
            else {
                return nil
            }
            let labels = line[line.index(line.startIndex, offsetBy: name.count)..<space]
            guard labels.isEmpty || labels.hasPrefix("{") else { return nil }
            return (String(labels), value)
        }
    }

    /// The node `herald_amqp_node` marks as the one connected to now.
    static func metricNode(of running: RunningService) -> String? {
        metric("herald_amqp_node", of: running).first { $0.value == 1 }.map { series in
            String(series.labels.dropFirst(#"{node=""#.count).dropLast(#""}"#.count))
        }
    }

    private func finish() async {
        for running in services.withLock({ $0 }) { try? await running.stop() }
        try? await ClusterBroker.restartStopped()
        await feed.close()
        await results.close(deleting: names.queues)
        simulator.stop()
    }
}

/// Publishes the tests' events (one FCM target each, ids and tokens numbered)
/// with publisher confirms through one node, publishing again what failed
/// retryably: the broker may have had it, so such repeats are counted.
final class EventFeed: Sendable {
    let connection: AMQPConnection
    let exchange: String
    private let runner: Task<Void, Never>
    private let repeats = Atomic<Int>(0)

    init(url: String, exchange: String) async throws {
        var configuration = try AMQPConfiguration(url: url)
        configuration.connectTimeout = .seconds(5)
        connection = try AMQPConnection(configuration: configuration, logger: Logger(label: "test-feed", level: .error))
        self.exchange = exchange
        runner = Task { [connection] in try? await connection.run() }
        try await connection.waitUntilConnected()
    }

    static func token(_ index: Int) -> String { "tok-\(index)" }
    static func id(_ index: Int) -> String { "ev-\(index)" }

    /// Publishes events `indices`, `window` of them awaiting their confirm at
    /// once; fails if they are not all confirmed within a bound only a broker
    /// that never answers again reaches (a publish waits through reconnects).
    func publish(_ indices: Range<Int>, window: Int = 64) async throws {
        _ = try await within(.seconds(600), "confirms of events \(indices)") {
            try await self.publishAll(indices, window: window)
            return true
        }
    }

    private func publishAll(_ indices: Range<Int>, window: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for index in indices {
                if inFlight == window {
                    try await group.next()
                    inFlight -= 1
                }
                group.addTask { try await self.publishOne(index) }
                inFlight += 1
            }
            try await group.waitForAll()
        }
    }

    private func publishOne(_ index: Int) async throws {
        let body = #"{"id": "\#(Self.id(index))", "app": "chat", "provider": "fcm", "token": "\#(Self.token(index))"}"#
        for _ in 0..<20 {
            do {
                try await connection.publish(
                    exchange: exchange, routingKey: "chat.message", body: Array(body.utf8),
                    persistent: true, mandatory: true, messageID: Self.id(index))
                return
            } catch let error as AMQPError where error.isRetryable {
                repeats.add(1, ordering: .relaxed)
            }
        }
        throw TestFailure("event \(index) could not be published in 20 attempts")
    }

    /// Publishes that failed retryably and were published again.
    var republished: Int { repeats.load(ordering: .relaxed) }

    func close() async {
        connection.shutdown()
        _ = try? await awaitEnd(of: runner, "the feed's connection")
    }
}

/// Samples one instance's readiness and node (`/readyz`: `amqp_connected ok
/// host:port`) every 10 ms and keeps the changes, to time its outages. The
/// service updates the condition every 200 ms, which bounds the resolution.
final class ReadinessWatch: Sendable {
    struct Sample: Sendable {
        let at: ContinuousClock.Instant
        let ready: Bool
        let node: String?
    }

    /// An instance ready again.
    struct Recovery {
        /// The first sample ready again.
        let at: ContinuousClock.Instant
        /// From the instant the test gave (its stop or restart of a node) to `at`; zero if before it.
        let sinceMark: Duration
        let node: String
    }

    private let samples = Locked<[Sample]>([])
    private let task: Task<Void, Never>

    init(_ running: RunningService) {
        let health = running.service.health
        let samples = samples
        task = Task {
            while !Task.isCancelled {
                let report = health.report
                let sample = Sample(at: .now, ready: health.isReady, node: Self.connectedNode(in: report))
                samples.withLock { list in
                    if list.last.map({ $0.ready != sample.ready || $0.node != sample.node }) ?? true {
                        list.append(sample)
                    }
                }
                try? await Task.sleep(for: .milliseconds(10))  // the sampling interval, not a wait for an event
            }
        }
    }

    deinit { task.cancel() }

    /// The node of `amqp_connected ok host:port` in a `/readyz` report; nil while not connected.
    static func connectedNode(in report: String) -> String? {
        report.split(separator: "\n").first { $0.hasPrefix("amqp_connected ok ") }.map {
            String($0.dropFirst("amqp_connected ok ".count))
        }
    }

    /// The node the instance is connected to now (per the last sample).
    var node: String? { samples.withLock { $0.last?.node } }

    /// Waits for the first sample after `since` in which the instance is ready
    /// on a node `accepting` accepts; `sinceMark` counts from `mark` (default `since`).
    func recovery(
        since: ContinuousClock.Instant, mark: ContinuousClock.Instant? = nil, timeout: Duration = .seconds(60),
        on accepting: @Sendable (String) -> Bool
    ) async throws -> Recovery {
        var found: Recovery?
        _ = await eventually(timeout: timeout, every: .milliseconds(20)) {
            found = samples.withLock { Self.recovery(in: $0, since: since, mark: mark ?? since, accepting) }
            return found != nil
        }
        if let found { return found }
        throw TestFailure("not ready again within \(timeout): \(samples.withLock { $0.suffix(5) })")
    }

    /// Whether the instance was ready in every sample from `start` to `end`.
    func wasReady(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Bool {
        samples.withLock { list in
            let before = list.last { $0.at <= start }
            return (before?.ready ?? false) && list.allSatisfy { $0.at <= start || $0.at > end || $0.ready }
        }
    }

    private static func recovery(
        in samples: [Sample], since: ContinuousClock.Instant, mark: ContinuousClock.Instant,
        _ accepting: (String) -> Bool
    ) -> Recovery? {
        guard let back = samples.first(where: { $0.at > since && $0.ready && $0.node.map(accepting) == true }),
            let node = back.node
        else { return nil }
        return Recovery(at: back.at, sinceMark: max(.zero, back.at - mark), node: node)
    }

    func stop() { task.cancel() }
}

extension Duration {
    /// Seconds with two decimals, for the tests' printed figures.
    var printed: String {
        let value = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return String(format: "%.2f", value)
    }
}
