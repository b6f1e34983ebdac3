import Foundation
import HeraldCore
import HeraldSimulator
import HeraldTestSupport
import Testing

/// Route rates, provider pauses and the duplicate window, end to end through
/// RabbitMQ and the simulator (docs/traffic.md).
@Suite(.serialized) struct TrafficControlTests {
    /// One event to `count` FCM tokens `prefix-0` … `prefix-<count - 1>`.
    private func fanOut(_ id: String, count: Int, prefix: String) -> String {
        let targets = (0..<count).map { #"{"provider": "fcm", "token": "\#(prefix)-\#($0)"}"# }.joined(separator: ", ")
        return #"{"id": "\#(id)", "app": "chat", "targets": [\#(targets)], "notification": {"title": "x"}}"#
    }

    @Test func aRouteRateSpacesItsTargetsAndDropsNothing() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            routes: """
                routes:
                  - name: paced
                    match: {}
                    rate: {per_second: 50}
                """)
        try await RunningService.serving(config) { results, publisher in
            let started = ContinuousClock.now
            let publishedAt = Timestamp.now()
            try await publisher.publish(fanOut("paced-1", count: 200, prefix: "paced"))
            #expect(await results.wait(timeout: .seconds(60)) { $0.count == 200 })
            let took = ContinuousClock.now - started
            let statuses = Set(results.all.map(\.outcome.status))
            #expect(statuses == [.delivered], "every target delivered, none dropped: \(statuses)")
            #expect(took >= .milliseconds(3500), "200 targets at 50/s with a burst of 1 take about 4 s, took \(took)")
            Self.expectNoArrivalAheadOfTheRate(
                simulator.recorder.notifications.map(\.receivedAt), after: publishedAt, perSecond: 50)
        }
    }

    /// The n-th send (from 0) is admitted no sooner than n / `perSecond`
    /// seconds after the first, and the first after the publish: a send
    /// delayed on its way (a busy machine) only arrives later, so no arrival
    /// may be ahead of that schedule. Without the rate every send arrives
    /// within a few tens of milliseconds of the publish.
    private static func expectNoArrivalAheadOfTheRate(
        _ received: [Timestamp], after publishedAt: Timestamp, perSecond: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let arrivals = received.sorted()
        let early = arrivals.enumerated().first { index, arrival in
            arrival - publishedAt < .milliseconds(index * 1000 / perSecond) - .milliseconds(5)
        }
        #expect(
            early == nil,
            "send \(early?.offset ?? 0) arrived \(early.map { $0.element - publishedAt } ?? .zero) after the publish: ahead of \(perSecond)/s",
            sourceLocation: sourceLocation)
    }

    @Test func anAppsAPNsThrottleSpacesItsSendsAndLeavesOtherAppsAlone() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let pacedApp =
            ServiceConfig.apnsApp("paced", topic: "com.example.paced", simulator: simulator)
            + "\n      max_per_second: 20"
        let config = try ServiceConfig(simulator: simulator, extraAppsYAML: pacedApp)
        try await RunningService.serving(config) { results, publisher in
            func event(_ id: String, app: String) -> String {
                let targets = (0..<30).map { #"{"provider": "apns", "token": "\#(String(format: "%064x", $0 + 1))"}"# }
                return
                    #"{"id": "\#(id)", "app": "\#(app)", "targets": [\#(targets.joined(separator: ", "))], "notification": {"title": "x"}}"#
            }
            // App chat has no throttle: its 30 sends are delivered (how fast depends on the machine).
            try await publisher.publish(event("free", app: "chat"))
            #expect(await results.wait { $0.count == 30 })
            let started = ContinuousClock.now
            let publishedAt = Timestamp.now()
            try await publisher.publish(event("throttled", app: "paced"))
            #expect(await results.wait(timeout: .seconds(30)) { $0.count == 60 })
            let throttled = ContinuousClock.now - started
            #expect(results.all.allSatisfy { $0.outcome.status == .delivered })
            #expect(throttled >= .milliseconds(1300), "30 sends at 20/s take about 1.45 s, took \(throttled)")
            let paced = simulator.recorder.notifications.filter { $0.headers["apns-topic"] == "com.example.paced" }.map(
                \.receivedAt)
            try #require(paced.count == 30)
            Self.expectNoArrivalAheadOfTheRate(paced, after: publishedAt, perSecond: 20)
        }
    }

    @Test func onExceedDropGivesTheTargetsOverTheRateADroppedOutcome() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            routes: """
                routes:
                  - name: capped
                    match: {}
                    rate: {per_second: 1, burst: 5, on_exceed: drop}
                """)
        try await RunningService.serving(config) { results, publisher in
            try await publisher.publish(fanOut("capped-1", count: 20, prefix: "capped"))
            #expect(await results.wait { $0.count == 20 })
            let delivered = results.all.filter { $0.outcome.status == .delivered }
            let dropped = results.all.filter { $0.outcome.status == .dropped }
            #expect(
                (5...6).contains(delivered.count),
                "the burst of 5 (and at most one refilled token) delivered: \(delivered.count)")
            #expect(delivered.count + dropped.count == 20)
            #expect(
                dropped.allSatisfy { $0.outcome.reason == "over the rate of route 'capped' (1/s, on_exceed: drop)" },
                "\(Set(dropped.map { $0.outcome.reason ?? "" }))")
            #expect(dropped.allSatisfy { $0.routingKey == "dropped.fcm.chat" })
            #expect(simulator.recorder.notifications.count == delivered.count, "nothing over the rate was sent")
        }
    }

    @Test func theSameEventIDTwiceWithinTheWindowNotifiesOnce() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, topLevelExtra: "duplicate_window: 10m")
        try await RunningService.serving(config) { results, publisher in
            let event =
                #"{"id": "twice", "app": "chat", "targets": [{"provider": "fcm", "token": "d-1"}, {"provider": "fcm", "token": "d-2"}], "notification": {"title": "x"}}"#
            try await publisher.publish(event)
            #expect(await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 2 })
            try await publisher.publish(event)
            #expect(await results.wait { $0.filter { $0.outcome.status == .dropped }.count == 2 })
            let dropped = results.all.filter { $0.outcome.status == .dropped }
            #expect(
                dropped.allSatisfy {
                    $0.outcome.reason?.hasPrefix("duplicate event: id 'twice' of app 'chat' was first received at ")
                        == true
                },
                "\(dropped.map { $0.outcome.reason ?? "" })")
            #expect(
                Set(dropped.compactMap { $0.outcome.address?.value }) == ["d-1", "d-2"],
                "one dropped outcome per target")
            #expect(simulator.recorder.notifications.count == 2, "each device notified once")
            // Another id is not a duplicate.
            try await publisher.publish(event.replacingOccurrences(of: "\"twice\"", with: "\"once\""))
            #expect(await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 4 })
        }
    }

    /// The window is per app: two apps' events with one id are two events,
    /// in the instance's memory and in the registry database alike; each
    /// app's own second event with it is still a duplicate.
    @Test(arguments: [Backend?.none, .sqlite, .postgres])
    func twoAppsPublishingTheSameEventIDAreBothDelivered(backend: Backend?) async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let apps = "  news:\n" + ServiceConfig.fcmSection(simulator: simulator)
        func run(registry: String) async throws {
            let config = try ServiceConfig(
                simulator: simulator, extraAppsYAML: apps, topLevelExtra: "duplicate_window: 10m\n" + registry)
            try await RunningService.serving(config) { results, publisher in
                func event(_ app: String) -> String {
                    #"{"id": "shared", "app": "\#(app)", "provider": "fcm", "token": "\#(app)-1", "notification": {"title": "x"}}"#
                }
                try await publisher.publish(event("chat"))
                #expect(await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 1 })
                try await publisher.publish(event("news"))
                #expect(
                    await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 2 },
                    "\(results.all.map { "\($0.outcome.app ?? "") \($0.outcome.status) \($0.outcome.reason ?? "")" })")
                #expect(Set(results.all.compactMap(\.outcome.app)) == ["chat", "news"])
                try await publisher.publish(event("news"))
                #expect(await results.wait { $0.contains { $0.outcome.status == .dropped } })
                let dropped = try #require(results.all.first { $0.outcome.status == .dropped })
                #expect(dropped.outcome.app == "news")
                #expect(
                    dropped.outcome.reason?.hasPrefix(
                        "duplicate event: id 'shared' of app 'news' was first received at ") == true,
                    "\(dropped.outcome.reason ?? "")")
                #expect(simulator.recorder.notifications.count == 2)
            }
        }
        guard let backend else { return try await run(registry: "") }
        try await TestDatabase.with(backend) { database in
            try await run(registry: database.configSection())
        }
    }

    /// With a registry database the window is kept there: a restarted
    /// instance still knows the ids, and of two instances given the same
    /// event at once exactly one delivers it.
    @Test(arguments: Backend.allCases)
    func withARegistryDatabaseTheWindowSurvivesARestartAndSpansInstances(backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let simulator = try await SimulatorHarness()
            defer { simulator.stop() }
            let config = try ServiceConfig(
                simulator: simulator, topLevelExtra: "duplicate_window: 10m\n\(database.configSection())")
            let results = try await ResultsCollector(prefix: config.prefix)
            let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
            func event(_ id: String) -> String {
                #"{"id": "\#(id)", "app": "chat", "provider": "fcm", "token": "tok-\#(id)"}"#
            }

            let first = RunningService(try config.load())
            #expect(await first.waitUntilConsuming())
            try await publisher.publish(event("before-restart"))
            #expect(await results.wait { $0.contains { $0.outcome.status == .delivered } })
            try await first.stop()

            // A new instance: its memory is empty, the database remembers.
            let instances = [RunningService(try config.load()), RunningService(try config.load())]
            for instance in instances { #expect(await instance.waitUntilConsuming()) }
            try await publisher.publish(event("before-restart"))
            #expect(await results.wait { $0.contains { $0.outcome.status == .dropped } })
            let dropped = try #require(results.all.first { $0.outcome.status == .dropped })
            #expect(
                dropped.outcome.reason?.hasPrefix(
                    "duplicate event: id 'before-restart' of app 'chat' was first received at ") == true,
                "\(dropped.outcome.reason ?? "")")

            // The same event twice at once, to two instances consuming one queue: one delivery.
            for _ in 0..<2 { try await publisher.publish(event("both")) }
            #expect(await results.wait { $0.filter { $0.outcome.eventID == "both" }.count == 2 })
            let both = results.all.filter { $0.outcome.eventID == "both" }.map(\.outcome.status)
            #expect(both.sorted { $0.rawValue < $1.rawValue } == [.delivered, .dropped], "\(both)")
            #expect(simulator.recorder.notifications.count == 2, "each id notified once")
            // Both stop even if the first fails: a Herald left running would outlive the test.
            var failure: (any Error)?
            for instance in instances {
                do { try await instance.stop() } catch { failure = failure ?? error }
            }
            await results.close(deleting: config.queues)
            if let failure { throw failure }
        }
    }

    @Test func anFCMProjectQuotaPausesTheAppsFCMSendsWhileAPNsGoesOnAndEverythingArrivesAfter() async throws {
        // FCM's quota is a project's: app chat over its project's pauses only its
        // own FCM sends; its APNs sends and app news, on a project of its own, go
        // on, and the paused targets arrive after the pause.
        let newsProject = "herald-test-news"
        let simulator = try await SimulatorHarness(otherFCMProjects: [newsProject])
        defer { simulator.stop() }
        // A pause is an attempt: the targets paused for most of the 6 s window
        // come back every 500 ms, about a dozen times.
        let config = try ServiceConfig(
            simulator: simulator, maxAttempts: 20, delays: "[500ms]",
            extraAppsYAML: "  news:\n" + ServiceConfig.fcmSection(simulator: simulator, project: newsProject))
        try await RunningService.serving(config) { results, publisher in
            // Three messages per 6 s for each project: chat's fourth is refused with QUOTA_EXCEEDED.
            simulator.fcm.update { $0.quota = .init(messages: 3, window: .seconds(6)) }
            for index in 0..<4 {
                try await publisher.publish(
                    #"{"id": "q-\#(index)", "app": "chat", "provider": "fcm", "token": "q-\#(index)"}"#)
                #expect(await results.wait { $0.count == index + 1 })
            }
            let refused = try #require(results.all.first { $0.outcome.status == .retrying })
            #expect(refused.outcome.reason == "QUOTA_EXCEEDED" && refused.outcome.eventID == "q-3")
            // While chat is paused its FCM targets are not sent; its APNs ones and news's FCM ones are.
            let token = String(repeating: "ab", count: 32)
            try await publisher.publish(#"{"id": "q-4", "app": "chat", "provider": "fcm", "token": "q-4"}"#)
            try await publisher.publish(#"{"id": "a-1", "app": "chat", "provider": "apns", "token": "\#(token)"}"#)
            try await publisher.publish(
                #"{"id": "n-1", "app": "news", "targets": [{"provider": "fcm", "token": "n-1"}, {"provider": "fcm", "token": "n-2"}], "notification": {"title": "x"}}"#
            )
            #expect(
                await results.wait { got in
                    ["q-4", "a-1"].allSatisfy { id in got.contains { $0.outcome.eventID == id } }
                        && got.filter { $0.outcome.eventID == "n-1" }.count == 2
                })
            let paused = try #require(results.all.first { $0.outcome.eventID == "q-4" })
            #expect(paused.outcome.status == .retrying)
            #expect(
                paused.outcome.reason?.hasPrefix(
                    "FCM project quota exceeded (QUOTA_EXCEEDED): app 'chat' pauses its FCM sends for ") == true
                    && paused.outcome.reason?.hasSuffix("more; not sent") == true, "\(paused.outcome.reason ?? "")")
            let apns = try #require(results.all.first { $0.outcome.eventID == "a-1" })
            #expect(
                apns.outcome.status == .delivered && apns.outcome.attempt == 1, "APNs kept flowing during the pause")
            let news = results.all.filter { $0.outcome.eventID == "n-1" }.map(\.outcome)
            #expect(
                news.allSatisfy { $0.status == .delivered && $0.attempt == 1 },
                "app news's FCM project is not chat's: \(news.map { "\($0.status) attempt \($0.attempt) \($0.reason ?? "")" })"
            )
            // After the pause every chat FCM target is delivered, and the paused one was never refused by FCM.
            #expect(
                await results.wait(timeout: .seconds(60)) { got in
                    Set(
                        got.filter {
                            $0.outcome.status == .delivered && $0.outcome.app == "chat" && $0.outcome.provider == .fcm
                        }
                        .map(\.outcome.eventID)
                    ).count == 5
                })
            let quotaRefusals = simulator.recorder.refusals.filter { $0.reason == "QUOTA_EXCEEDED" }
            #expect(
                !quotaRefusals.contains { $0.addressee?.target == "q-4" },
                "q-4 waited out the pause instead of being sent into it")
            #expect(quotaRefusals.map { $0.addressee?.target } == ["q-3"], "news's sends fit its own project's quota")
            // news was sent during chat's pause: before chat's paused targets went out.
            let sent = simulator.recorder.notifications
            let newsSent = sent.filter { $0.target.hasPrefix("n-") }.map(\.receivedAt)
            let afterPause = sent.filter { ["q-3", "q-4"].contains($0.target) }.map(\.receivedAt)
            #expect(newsSent.count == 2 && afterPause.count == 2)
            if let lastNews = newsSent.max(), let resumed = afterPause.min() {
                #expect(lastNews < resumed, "news at \(lastNews), chat's FCM resumed at \(resumed)")
            }
        }
    }

    /// APNs TooManyRequests for one device pauses that token only; its notification is delivered once the device takes them again.
    @Test func apnsTooManyRequestsForOneTokenHoldsBackOnlyThatToken() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // 100 attempts at least 500 ms apart outlast every wait below: t-1 is retried until the test lets it through.
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 100, delays: "[500ms]")
        try await RunningService.serving(config) { results, publisher in
            let busy = String(repeating: "b1", count: 32)
            let quiet = String(repeating: "c2", count: 32)
            // Every notification to `busy` is answered 429 TooManyRequests until the fault is lifted: an
            // injected answer, not the simulator's per-token rate, whose window a loaded machine outruns
            // (a second notification sent after the window has closed is delivered, not refused).
            simulator.faults.replace(
                with: SimulatorFaults(errorRate: 1, errorStatus: 429, services: ["apns"], tokens: [busy]))
            try await publisher.publish(#"{"id": "t-1", "app": "chat", "provider": "apns", "token": "\#(busy)"}"#)
            #expect(await results.wait { $0.contains { $0.outcome.eventID == "t-1" } })
            let throttled = try #require(results.all.first { $0.outcome.eventID == "t-1" })
            #expect(
                throttled.outcome.status == .retrying && throttled.outcome.reason == "TooManyRequests",
                "\(throttled.outcome)")
            // While `busy` is refused and paused, another token of the same app goes through at once.
            try await publisher.publish(#"{"id": "t-2", "app": "chat", "provider": "apns", "token": "\#(quiet)"}"#)
            #expect(await results.wait { $0.contains { $0.outcome.eventID == "t-2" } })
            let other = try #require(results.all.first { $0.outcome.eventID == "t-2" })
            #expect(
                other.outcome.status == .delivered && other.outcome.attempt == 1,
                "another token is not held back: \(other.outcome)")
            #expect(
                !results.all.contains { $0.outcome.eventID == "t-1" && $0.outcome.status != .retrying },
                "t-1 is held back, not given up")
            simulator.faults.replace(with: .none)
            #expect(
                await results.wait(timeout: .seconds(30)) { got in
                    got.contains { $0.outcome.eventID == "t-1" && $0.outcome.status == .delivered }
                },
                "\(results.all.filter { $0.outcome.eventID == "t-1" }.map { "\($0.outcome.status) \($0.outcome.reason ?? "")" })"
            )
        }
    }

    /// FCM's per-device QUOTA_EXCEEDED (no quota metric named) pauses that token only.
    @Test func anFCMDeviceRateAnswerHoldsBackOnlyThatToken() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 60, delays: "[500ms]")
        try await RunningService.serving(config) { results, publisher in
            // Retry-After: 10 s, a pause that d-2 and d-3 are published well within however
            // loaded the machine is (at 1 s, a loaded run sent d-3 after the pause had ended);
            // 60 attempts 500 ms apart outlast it.
            simulator.fcm.update {
                $0.tokenErrors["busy-device"] = .quotaExceeded
                $0.retryAfter = 10
            }
            try await publisher.publish(#"{"id": "d-1", "app": "chat", "provider": "fcm", "token": "busy-device"}"#)
            #expect(await results.wait { $0.contains { $0.outcome.eventID == "d-1" } })
            let throttled = try #require(results.all.first { $0.outcome.eventID == "d-1" })
            #expect(
                throttled.outcome.status == .retrying && throttled.outcome.reason == "QUOTA_EXCEEDED",
                "\(throttled.outcome)")
            try await publisher.publish(#"{"id": "d-2", "app": "chat", "provider": "fcm", "token": "other-device"}"#)
            #expect(await results.wait { $0.contains { $0.outcome.eventID == "d-2" } })
            let other = try #require(results.all.first { $0.outcome.eventID == "d-2" })
            #expect(
                other.outcome.status == .delivered && other.outcome.attempt == 1,
                "the app's other devices are not paused")
            // While the device is paused its sends wait; once the device takes messages again, it is delivered.
            try await publisher.publish(#"{"id": "d-3", "app": "chat", "provider": "fcm", "token": "busy-device"}"#)
            #expect(await results.wait { $0.contains { $0.outcome.eventID == "d-3" } })
            let paused = try #require(results.all.first { $0.outcome.eventID == "d-3" })
            #expect(
                paused.outcome.status == .retrying
                    && paused.outcome.reason?.hasPrefix(
                        "this device's FCM message rate exceeded (QUOTA_EXCEEDED): its sends pause") == true,
                "\(paused.outcome.reason ?? "")")
            simulator.fcm.update { $0.tokenErrors["busy-device"] = nil }
            #expect(
                await results.wait(timeout: .seconds(60)) { got in
                    Set(got.filter { $0.outcome.status == .delivered }.map(\.outcome.eventID)) == ["d-1", "d-2", "d-3"]
                }, "\(results.all.map { "\($0.outcome.eventID) \($0.outcome.status) \($0.outcome.reason ?? "")" })")
        }
    }
}
