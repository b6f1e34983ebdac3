import Foundation
import HeraldCore
import HeraldTestSupport
import Testing

/// Every target gets its own verdict, end to end: real broker, real simulator
/// over TLS HTTP/2, `DeliveryService` consuming.
@Suite(.serialized) struct PerTargetVerdictTests {
    static let live = [String(repeating: "a1", count: 32), String(repeating: "b2", count: 32)]

    /// One malformed token, one bad topic and one `/topics/` prefix among good
    /// targets: the good ones are delivered, each bad one gets its own
    /// terminal outcome, nothing is dead-lettered and the bad ones are never sent.
    @Test func oneBadTargetAmongGoodOnesFailsAlone() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            try await publisher.publish(
                #"""
                {"id": "fan", "app": "chat", "notification": {"title": "Hi", "image": "https://example.com/cat.png"},
                 "targets": [{"provider": "apns", "token": "\#(Self.live[0])"}, {"provider": "apns", "token": "not-a-token"},
                             {"provider": "fcm", "token": "fcm-live"}, {"provider": "apns", "token": "\#(Self.live[1])"},
                             {"provider": "fcm", "topic": "bad topic!"}, {"provider": "fcm", "topic": "/topics/news"},
                             {"provider": "apns", "token": "\#(Self.live[1].uppercased())"}],
                 "exclude_tokens": ["\#(Self.live[1].uppercased())"]}
                """#)
            #expect(await results.wait { $0.count >= 7 })
            let outcomes = results.all
            func outcome(_ value: String) -> (routingKey: String, outcome: Outcome)? {
                outcomes.first { $0.outcome.address?.value == value }
            }
            #expect(outcome(Self.live[0])?.routingKey == "delivered.apns.chat")
            #expect(outcome("fcm-live")?.routingKey == "delivered.fcm.chat")
            // exclude_tokens matches APNs tokens whatever their case: both spellings of the sender's token are dropped.
            #expect(
                outcomes.filter { $0.outcome.address?.value.lowercased() == Self.live[1] }.map(\.routingKey)
                    == ["dropped.apns.chat", "dropped.apns.chat"])
            let bad = try #require(outcome("not-a-token"))
            #expect(bad.routingKey == "invalid_token.apns.chat")
            #expect(bad.outcome.reason == "BadDeviceToken")
            #expect(
                bad.outcome.detail
                    == #"targets[1].token: expected a hexadecimal APNs device token, found "not-a-token""#)
            #expect(bad.outcome.latencyMs == nil)
            let topic = try #require(outcome("bad topic!"))
            #expect(topic.routingKey == "failed.fcm.chat")
            #expect(
                topic.outcome.reason
                    == #"targets[4].topic: expected an FCM topic name (letters, digits, '-', '_', '.', '~', '%'), found "bad topic!""#
            )
            #expect(
                outcome("/topics/news")?.outcome.reason
                    == #"targets[5].topic: give the topic name without the "/topics/" prefix"#)

            // Only the good targets reached the provider, and the APNs one with an
            // image has mutable-content so its service extension can attach it.
            let sent = simulator.recorder.notifications
            #expect(Set(sent.map(\.target)) == [Self.live[0], "fcm-live"])
            let apns = try #require(sent.first { $0.provider == "apns" })
            #expect(apns.payload["aps"]?["mutable-content"]?.intValue == 1)
            #expect(apns.payload["image"]?.stringValue == "https://example.com/cat.png")
            #expect(await results.waitUntilSettled([running]))
            #expect(results.dead.isEmpty)
        }
    }

    /// FCM devices named by their Firebase installation IDs, end to end: a
    /// live FID is delivered as `message.fid`, a dead one (UNREGISTERED) and a
    /// malformed one are `invalid_token`, a listed one is dropped; every
    /// outcome carries the FID under `"fid"`.
    @Test func fidTargetsAreDeliveredAndADeadFIDIsInvalidated() async throws {
        let live = "cR1Zm2QmSSmvP3bqAbcDef", dead = "dDeadFid0000000000000Q", sender = "eSenderFid000000000000"
        let simulator = try await SimulatorHarness(deadFCMTokens: [dead])
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            try await publisher.publish(
                #"""
                {"id": "fids", "app": "chat", "notification": {"title": "Hi"},
                 "targets": [{"provider": "fcm", "fid": "\#(live)"}, {"provider": "android", "fid": "\#(dead)"},
                             {"provider": "fcm", "fid": "not/base64"}, {"provider": "fcm", "fid": "\#(sender)"}],
                 "exclude_tokens": ["\#(sender)"]}
                """#)
            #expect(await results.wait { $0.count >= 4 })
            func outcome(_ fid: String) -> (routingKey: String, outcome: Outcome)? {
                results.all.first { $0.outcome.address == .fid(fid) }
            }
            let delivered = try #require(outcome(live))
            #expect(delivered.routingKey == "delivered.fcm.chat")
            #expect(
                delivered.outcome.providerMessageID?.hasPrefix("projects/\(SimulatorHarness.project)/messages/") == true
            )
            let unregistered = try #require(outcome(dead))
            #expect(unregistered.routingKey == "invalid_token.fcm.chat")
            #expect(unregistered.outcome.reason == "UNREGISTERED")
            #expect(unregistered.outcome.providerStatus == 404)
            let malformed = try #require(outcome("not/base64"))
            #expect(malformed.routingKey == "invalid_token.fcm.chat")
            #expect(malformed.outcome.reason == "BadDeviceToken")
            #expect(
                malformed.outcome.detail
                    == #"targets[2].fid: expected a Firebase installation ID (URL-safe base64: letters, digits, '-', '_'), found "not/base64""#
            )
            #expect(outcome(sender)?.routingKey == "dropped.fcm.chat")
            #expect(outcome(sender)?.outcome.reason == "fid is in exclude_tokens")

            // Only the live FID was accepted (the dead one was answered 404), sent as message.fid.
            let sent = simulator.recorder.notifications
            #expect(sent.map(\.target) == [live])
            #expect(sent.first?.payload["fid"]?.stringValue == live)
            #expect(sent.first?.payload["token"] == nil)
            #expect(results.all.count == 4)
        }
    }

    /// Without an AMQP message-id, a rejected event is still named by its
    /// body's `id` and `app`, and its routing key names the app.
    @Test func aRejectedEventKeepsItsIDAndApp() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            try await publisher.publish(
                #"{"id": "evt-readable", "app": "chat", "targets": [], "notification": {"title": "x"}}"#)
            #expect(await results.wait { !$0.isEmpty })
            let rejected = try #require(results.all.first)
            #expect(rejected.routingKey == "rejected.unknown.chat")
            #expect(rejected.outcome.eventID == "evt-readable")
            #expect(rejected.outcome.app == "chat")
            #expect(rejected.outcome.reason == "targets: is empty; give at least one target")
        }
    }

    /// A target refused by routing (its app has no credentials for it) is
    /// dead-lettered alone: replaying the dead letter cannot notify the
    /// targets that were delivered.
    @Test func aPartlyRefusedEventIsDeadLetteredWithOnlyItsRefusedTargets() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: ServiceConfig.apnsApp("ios-only", topic: "com.example.chat", simulator: simulator))
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            try await publisher.publish(
                #"""
                {"id": "part", "app": "ios-only", "notification": {"title": "Hi"},
                 "targets": [{"provider": "apns", "token": "\#(Self.live[0])"}, {"provider": "fcm", "token": "fcm-1"}]}
                """#)
            #expect(await results.wait { $0.count >= 2 })
            #expect(Set(results.all.map(\.routingKey)) == ["delivered.apns.ios-only", "rejected.fcm.ios-only"])
            #expect(await results.wait { _ in !results.dead.isEmpty })
            let dead = try #require(results.dead.first)
            #expect(dead.headers[HeraldHeader.error]?.stringValue == "app 'ios-only' has no fcm credentials")
            let body = try JSONValue.parse(dead.body)
            #expect(body["id"]?.stringValue == "part")
            #expect(body["targets"] == [["provider": "fcm", "token": "fcm-1"]])
            #expect(body["notification"]?["title"]?.stringValue == "Hi")
        }
    }

    /// Three apps signing with one `.p8` (same team and key id, different
    /// topics) share one provider token, so Apple's 20-minute rule refuses none.
    @Test func threeAppsOnOneKeyShareOneProviderToken() async throws {
        let simulator = try await SimulatorHarness(tokenUpdateInterval: .seconds(20 * 60))
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: ServiceConfig.apnsApp("mail", topic: "com.example.mail", simulator: simulator) + "\n"
                + ServiceConfig.apnsApp("maps", topic: "com.example.maps", simulator: simulator))
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            for (index, app) in ["chat", "mail", "maps"].enumerated() {
                try await publisher.publish(
                    #"{"id": "k\#(index)", "app": "\#(app)", "provider": "apns", "token": "\#(Self.live[0])", "notification": {"title": "x"}}"#
                )
            }
            #expect(await results.wait { $0.count >= 3 })
            #expect(
                Set(results.all.map(\.routingKey)) == [
                    "delivered.apns.chat", "delivered.apns.mail", "delivered.apns.maps",
                ])
            #expect(
                Set(simulator.recorder.notifications.compactMap { $0.headers["apns-topic"] })
                    == ["com.example.chat", "com.example.mail", "com.example.maps"])
            #expect(running.service.metrics.tokenRefreshes.labels("apns", "success").current == 1)
        }
    }

    /// 40 sandbox tokens sent to a production app: Apple answers each
    /// BadDeviceToken. The guard lets 9 (`min_answers` - 1) become
    /// `invalid_token`, the rest are `failed` with the mismatch reason; once
    /// healthy answers outweigh them in its window, a stale token is
    /// classified as Apple answers again. The window (24 h) is far longer
    /// than the test can take, so however slowly the answers come, all of them
    /// count: the counts below follow from the answers alone, not from time.
    @Test func aWrongEnvironmentCannotWipeTheTokenTable() async throws {
        let sandbox = (0..<41).map { String(format: "5e%062x", $0) }
        let simulator = try await SimulatorHarness(sandboxAPNsTokens: sandbox)
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, outcomesExtra: ", invalidation_guard: {window: 24h}")
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            for (index, token) in sandbox.prefix(40).enumerated() {
                try await publisher.publish(
                    #"{"id": "sb\#(index)", "app": "chat", "provider": "apns", "token": "\#(token)", "notification": {"title": "x"}}"#
                )
            }
            #expect(await results.wait(timeout: .seconds(120)) { $0.count >= 40 })
            let first = results.all
            let invalidated = first.filter { $0.routingKey == "invalid_token.apns.chat" }
            let held = first.filter { $0.routingKey == "failed.apns.chat" }
            #expect(invalidated.count == 9, "the guard trips at the 10th of 10 suspect answers")
            #expect(held.count == 31)
            #expect(
                held.allSatisfy {
                    $0.outcome.reason
                        == "BadDeviceToken: not invalidated, a credential or environment mismatch is suspected"
                        && $0.outcome.detail?.hasSuffix("refused the token this way (invalidation guard)") == true
                })
            #expect(running.service.metrics.invalidationsHeldBack.labels("apns", "chat").current == held.count)
            #expect(running.service.metrics.invalidationGuardTripped.labels("apns", "chat").current == 1)
            #expect(running.logs.lines.contains { $0.contains("invalidation guard tripped") && $0.contains("chat") })

            // 42 healthy answers bring the window's share below one half (40 of 82), and keep it
            // there with one more suspect answer (41 of 83): the stale token is classified normally.
            for index in 0..<42 {
                try await publisher.publish(
                    #"{"id": "ok\#(index)", "app": "chat", "provider": "apns", "token": "\#(Self.live[index % 2])", "notification": {"title": "x"}}"#
                )
            }
            #expect(await results.wait(timeout: .seconds(120)) { $0.count >= 82 })
            #expect(results.all.dropFirst(40).filter { $0.routingKey == "delivered.apns.chat" }.count == 42)
            #expect(running.service.metrics.invalidationGuardTripped.labels("apns", "chat").current == 0)
            try await publisher.publish(
                #"{"id": "stale", "app": "chat", "provider": "apns", "token": "\#(sandbox[40])", "notification": {"title": "x"}}"#
            )
            #expect(await results.wait { $0.count >= 83 })
            let stale = results.all.first { $0.outcome.eventID == "stale" }
            #expect(stale?.routingKey == "invalid_token.apns.chat")
            #expect(stale?.outcome.reason == "BadDeviceToken")
            #expect(running.service.metrics.invalidationGuardTripped.labels("apns", "chat").current == 0)
        }
    }

    /// Google's explanation of a refused message reaches the outcome.
    @Test func anFCMFailureCarriesGooglesMessage() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        try await RunningService.serving(config, watchingDeadLetters: true) { running, results, publisher in
            try await publisher.publish(
                #"{"id": "typo", "app": "chat", "provider": "fcm", "token": "fcm-1", "notification": {"title": "x"}, "fcm": {"android": {"notification": {"chanel_id": "news"}}}}"#
            )
            #expect(await results.wait { !$0.isEmpty })
            let failed = try #require(results.all.first)
            #expect(failed.routingKey == "failed.fcm.chat")
            #expect(failed.outcome.reason == "INVALID_ARGUMENT")
            #expect(
                failed.outcome.detail?.contains(#"Unknown name "chanel_id" at 'message.android.notification'"#) == true)
            #expect(await eventually { running.logs.lines.contains { $0.contains("chanel_id") } })
        }
    }
}
