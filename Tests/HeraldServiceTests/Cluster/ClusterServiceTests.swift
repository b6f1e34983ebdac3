import HeraldAMQP
import HeraldCore
import HeraldService
import HeraldTestSupport
import Testing

/// Herald's `DeliveryService`, in-process, on the local three-node cluster
/// with a quorum events queue and the simulator as both providers, while the
/// test stops the nodes it is connected to. Every figure printed with
/// `[cluster-service]` is what docs/scaling.md "What a node loss costs" quotes.
@Suite("Herald on a three-node cluster", .serialized, .cluster)
struct ClusterServiceTests {
    /// What a reconnect may take beyond its back-off: TCP and AMQP handshakes,
    /// declaring the topology again (its quorum queues may first elect a
    /// leader, their old one having gone with the node) and consuming. Well
    /// under a second here when the machine is quiet (the figures printed are
    /// what docs/scaling.md quotes); the bound is one only an instance that
    /// does not fail over reaches, since a loaded run (ThreadSanitizer beside
    /// a fuzzer) stretches every step.
    static let reconnectAllowance: Duration = .seconds(30)

    /// Stops the node `herald` is connected to (never the feed's and the
    /// collector's) and waits until it is ready on another node, which must be
    /// within the longest back-off of its `loss`-th loss in a row plus
    /// `reconnectAllowance`, counted from the loss it logged.
    static func failover(_ herald: RunningService, _ watch: ReadinessWatch, loss: Int) async throws -> (
        node: Int, recovery: ReadinessWatch.Recovery
    ) {
        let address = try #require(watch.node, "connected before the stop")
        let node = try #require(ClusterBroker.node(at: address))
        try #require(node != ClusterScenario.steadyNode, "the feed and the collector are on node \(node)")
        let held = ClusterScenario.metric("herald_inflight_events", of: herald).first?.value ?? -1
        let mark = ContinuousClock.now
        try await ClusterBroker.stop(node)
        let recovery = try await watch.recovery(since: mark) { $0 != address }
        let lost = try #require(
            herald.logs.first("amqp connection lost", after: mark), "\(herald.logs.lines.suffix(5))")
        let connected = try #require(herald.logs.first("amqp connected", after: lost.at))
        // The back-off level grows by one per loss of a connection younger than
        // `stableAfter`, so the `loss`-th loss waits at most `delay(attempt: loss)`.
        let bound = try herald.config.amqpConfiguration().reconnect.delay(attempt: loss, unit: 1) + reconnectAllowance
        let toReady = recovery.at - lost.at
        print(
            "[cluster-service] stopped node \(node) (\(held) events in flight; at the loss \(lost.int("unsettled_deliveries") ?? -1) "
                + "deliveries unsettled, \(lost.int("unconfirmed") ?? -1) publishes unconfirmed): connected to \(recovery.node) "
                + "\((connected.at - lost.at).printed) s after the loss, ready \(toReady.printed) s after it "
                + "(\(recovery.sinceMark.printed) s after the stop command; bound \(bound.printed) s)")
        #expect(toReady <= bound, "ready \(toReady) after losing node \(node)")
        #expect(ClusterScenario.metricNode(of: herald) == recovery.node, "herald_amqp_node follows /readyz")
        return (node, recovery)
    }

    @Test func failoverUnderLoadLosesNoEventAndRepeatsAtMostAPrefetchPerStop() async throws {
        try await ClusterScenario.run { scenario in
            let herald = try await scenario.startHerald(nodes: [1, 2, 3])
            let watch = ReadinessWatch(herald)
            defer { watch.stop() }
            #expect(
                ReadinessWatch.connectedNode(in: herald.service.health.report) == ClusterBroker.address(1),
                "unshuffled: the first")
            let total = 2000
            let half = total / 2
            let started = ContinuousClock.now

            // Each half is published as fast as confirms come back; Herald's node
            // goes away while it works through the backlog.
            let first = Task { try await scenario.feed.publish(0..<half) }
            #expect(await scenario.waitUntilOutcomes(atLeast: half / 20))
            let one = try await Self.failover(herald, watch, loss: 0)
            try await first.value
            #expect(await scenario.waitUntilFinished(0..<half))
            let firstHalf = ContinuousClock.now - started
            try await ClusterBroker.restart(one.node)

            let secondStarted = ContinuousClock.now
            let second = Task { try await scenario.feed.publish(half..<total) }
            #expect(await scenario.waitUntilOutcomes(atLeast: half + half / 20))
            let two = try await Self.failover(herald, watch, loss: 1)
            #expect(two.node != one.node, "the second stop takes another node")
            try await second.value
            #expect(await scenario.waitUntilFinished(0..<total))
            let secondHalf = ContinuousClock.now - secondStarted

            // Each stop returns at most a prefetch of unacked events to the queue, each
            // delivered again at most once; a publish repeated after a lost confirm may
            // have been enqueued twice.
            let allowed = scenario.prefetch * 2 + scenario.feed.republished
            let repeated = Self.check(scenario, 0..<total, allowed: allowed)
            print(
                "[cluster-service] failover under load: \(total) events, \(herald.logs.count(Self.skippedRedelivery)) redelivered "
                    + "events recognised, \(herald.logs.count(Self.unsettledEvent)) events whose outcomes failed, "
                    + "\(repeated.outcomes) repeated outcomes, "
                    + "\(repeated.notifications) repeated notifications (allowed \(allowed)), \(scenario.feed.republished) publishes repeated; "
                    + "each half across one stop: \(firstHalf.printed) s and \(secondHalf.printed) s "
                    + "(\(Self.rate(half, firstHalf)) and \(Self.rate(half, secondHalf)) events/s)")
            #expect(!herald.hasReturned)
        }
    }

    @Test func withOneAddressHeraldWaitsForItsNodeThenDeliversWhatWasPublishedMeanwhile() async throws {
        try await ClusterScenario.run { scenario in
            let node = 2
            let herald = try await scenario.startHerald(nodes: [node])
            let watch = ReadinessWatch(herald)
            defer { watch.stop() }
            try await scenario.feed.publish(0..<200)
            #expect(await scenario.waitUntilFinished(0..<200))

            let stopped = ContinuousClock.now
            try await ClusterBroker.stop(node)
            #expect(await eventually(timeout: .seconds(30)) { !herald.service.health.isReady })
            #expect(herald.service.health.report.contains("amqp_connected FAILING"), "\(herald.service.health.report)")
            // Published through another node while Herald has none.
            try await scenario.feed.publish(200..<500)
            #expect(scenario.tally(200..<500).finished.isEmpty, "nothing can be consumed without a connection")
            #expect(!herald.service.health.isReady)
            #expect(!herald.hasReturned, "run() keeps trying its one node")

            try await ClusterBroker.restart(node)
            let restarted = ContinuousClock.now
            let recovery = try await watch.recovery(since: stopped, mark: restarted) {
                $0 == ClusterBroker.address(node)
            }
            // One address: one "connect failed" per attempt. The loss and each
            // failed attempt raised the back-off level by one, so the wait that
            // ran across the restart was at most `delay(attempt: failed)`.
            let failed = herald.logs.count("amqp connect failed")
            let bound =
                try herald.config.amqpConfiguration().reconnect.delay(attempt: failed, unit: 1)
                + Self.reconnectAllowance
            print(
                "[cluster-service] one address, node \(node) down \((restarted - stopped).printed) s "
                    + "(\(failed) connect attempts failed): ready \(recovery.sinceMark.printed) s after the restart "
                    + "(bound \(bound.printed) s)")
            #expect(failed > 0, "Herald kept trying while its node was down")
            #expect(recovery.sinceMark <= bound)
            #expect(await scenario.waitUntilFinished(0..<500))

            let allowed = scenario.prefetch + scenario.feed.republished
            let repeated = Self.check(scenario, 0..<500, allowed: allowed)
            print(
                "[cluster-service] one address: 500 events, \(repeated.outcomes) repeated outcomes, "
                    + "\(repeated.notifications) repeated notifications (allowed \(allowed)), \(scenario.feed.republished) publishes repeated"
            )
            #expect(!herald.hasReturned)
        }
    }

    @Test func twoInstancesOnDifferentNodesLoseOneNodeAndNoEvent() async throws {
        try await ClusterScenario.run { scenario in
            let first = try await scenario.startHerald(nodes: [1, 2, 3])
            let second = try await scenario.startHerald(nodes: [2, 3, 1])
            let firstWatch = ReadinessWatch(first)
            let secondWatch = ReadinessWatch(second)
            defer {
                firstWatch.stop()
                secondWatch.stop()
            }
            #expect(ReadinessWatch.connectedNode(in: first.service.health.report) == ClusterBroker.address(1))
            #expect(ReadinessWatch.connectedNode(in: second.service.health.report) == ClusterBroker.address(2))
            let total = 1200
            let started = ContinuousClock.now
            let feeding = Task { try await scenario.feed.publish(0..<total) }
            #expect(await scenario.waitUntilOutcomes(atLeast: total / 3))
            let mark = ContinuousClock.now
            let lost = try await Self.failover(first, firstWatch, loss: 0)
            #expect(lost.node == 1)
            try await feeding.value
            #expect(await scenario.waitUntilFinished(0..<total))
            let elapsed = ContinuousClock.now - started
            #expect(secondWatch.wasReady(from: mark, to: .now), "the instance on node 2 stays ready")

            let consumed = [first, second].map {
                ClusterScenario.metric("herald_events_consumed_total", of: $0).reduce(0) { $0 + $1.value }
            }
            let allowed = scenario.prefetch + scenario.feed.republished
            let repeated = Self.check(scenario, 0..<total, allowed: allowed)
            print(
                "[cluster-service] two instances, node 1 lost: \(total) events, "
                    + "\(first.logs.count(Self.skippedRedelivery) + second.logs.count(Self.skippedRedelivery)) redelivered events recognised, "
                    + "\(first.logs.count(Self.unsettledEvent) + second.logs.count(Self.unsettledEvent)) events whose outcomes failed, "
                    + "\(repeated.outcomes) repeated outcomes, "
                    + "\(repeated.notifications) repeated notifications (allowed \(allowed)), consumed per instance \(consumed), "
                    + "\(scenario.feed.republished) publishes repeated; \(elapsed.printed) s (\(Self.rate(total, elapsed)) events/s)"
            )
            #expect(consumed.allSatisfy { $0 > 0 }, "both instances consumed: \(consumed)")
        }
    }

    /// A message that is taken and returned again and again is dead-lettered
    /// after `amqp.delivery_limit` returns, exactly once, even when its queue's
    /// leader goes away in between: the count is replicated with the queue.
    @Test func theDeliveryLimitSurvivesALeaderChangeAndDeadLettersOnce() async throws {
        try await ClusterScenario.run(amqpExtra: "delivery_limit: 2") { scenario in
            // Herald declares its topology, then leaves the queue to a plain consumer.
            let herald = try await scenario.startHerald(nodes: [1, 2, 3])
            try await herald.stop()
            let events = "\(scenario.names.prefix).events"
            let deadLetters = "\(scenario.names.prefix).dead"
            let admin = scenario.results.connection
            let leader = try await ClusterBroker.leader(of: events, via: ClusterScenario.steadyNode)
            try #require(leader != ClusterScenario.steadyNode, "the consumer's node must stay")

            try await admin.publish(
                exchange: events, routingKey: "chat.poison", body: Array("poison".utf8), mandatory: true,
                messageID: "p1")
            // Deliveries 1 to 3: the limit allows 2 returns; the third dead-letters it.
            for delivery in 1...3 {
                if delivery == 3 { try await ClusterBroker.stop(leader) }
                let consumer = try await admin.consume(queue: events, prefetch: 1)
                let taken = try await Self.next(consumer)
                #expect(taken.messageID == "p1")
                #expect(taken.redelivered == (delivery > 1))
                #expect(
                    taken.headers["x-delivery-count"]?.intValue == (delivery > 1 ? Int64(delivery - 1) : nil),
                    "delivery \(delivery): \(taken.headers)")
                // Cancel first, so the returned message is not handed straight back to this consumer.
                try await admin.cancel(consumer)
                try await admin.reject(taken, requeue: true)
            }
            #expect(
                await eventually(timeout: .seconds(30)) { (try? await admin.messageCount(queue: deadLetters)) == 1 })
            #expect(try await admin.messageCount(queue: events) == 0)
            let dead = try await admin.consume(queue: deadLetters, prefetch: 5)
            let parked = try await Self.next(dead)
            #expect(parked.messageID == "p1")
            #expect(parked.body == Array("poison".utf8))
            #expect(parked.headers["x-first-death-reason"]?.stringValue == "delivery_limit", "\(parked.headers)")
            try await admin.ack(parked)
            try await admin.cancel(dead)
            // The old leader rejoins and catches up: it dead-letters nothing again.
            try await ClusterBroker.restart(leader)
            #expect(try await admin.messageCount(queue: deadLetters) == 0)
            #expect(try await admin.messageCount(queue: events) == 0)
        }
    }

    /// What Herald logs (info) for a redelivered event whose targets it already handled.
    static let skippedRedelivery = "redelivered event: skipping targets already handled"
    /// What Herald logs (warning) for an event whose outcomes were not confirmed: the broker redelivers it.
    static let unsettledEvent = "event not settled: publishing its outcomes failed; the broker will redeliver it"

    /// Checks that every one of the feed's events `indices` was delivered (no
    /// other outcome, none missing) and that outcomes and notifications were
    /// repeated at most `allowed` times; returns the repeats.
    static func check(_ scenario: ClusterScenario, _ indices: Range<Int>, allowed: Int) -> (
        outcomes: Int, notifications: Int
    ) {
        let tally = scenario.tally(indices)
        let notifications = scenario.repeatedNotifications(indices)
        #expect(tally.missing.isEmpty, "\(tally.missingSummary)")
        #expect(tally.statuses.keys.sorted() == ["delivered"], "\(tally.statuses)")
        #expect(tally.unexpected.isEmpty, "\(tally.unexpected.prefix(5))")
        #expect(tally.duplicates <= allowed, "\(tally.duplicates) repeated outcomes")
        #expect(notifications <= allowed, "\(notifications) repeated notifications")
        return (tally.duplicates, notifications)
    }

    static func rate(_ events: Int, _ elapsed: Duration) -> Int {
        events * 1000 / max(1, Int(elapsed / .milliseconds(1)))
    }

    /// The next delivery of `consumer`, or a failure after 20 s.
    static func next(_ consumer: AMQPConsumer) async throws -> AMQPDelivery {
        try await within(.seconds(20), "delivery on \(consumer.queue)") {
            var iterator = consumer.deliveries.makeAsyncIterator()
            return try await iterator.next()
        }
    }
}
