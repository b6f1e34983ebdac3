import HeraldAPNs
import HeraldCore
import HeraldProviders
import Testing

/// What an APNs request may carry that a team's key would sign for anyway:
/// only the app's own topics, and tokens no longer than Apple's can be.
@Suite struct TopicAndTokenRuleTests {
    let now = Timestamp(seconds: 1_800_000_000)
    let id = "00000000-0000-4000-8000-000000000000"
    /// chat's topics, and those of its beta build (`apns.allowed_topics`).
    let allowed = APNsTopic.allowed(bundleIDs: [chatApp, "com.example.chat.beta"])

    func event(_ json: String) throws -> Event {
        try Event.decode(Array(json.utf8), fallbackID: "m", providers: .registered)
    }

    func refusal(_ event: Event, target: Target? = nil) -> DeliveryRejection? {
        do {
            _ = try APNsRequest(
                event: event, target: target ?? event.targets[0], bundleID: chatApp, now: now, apnsID: id,
                allowedTopics: allowed)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyPushTypeSuffixOfAnAllowedBundleIDIsAllowed() {
        for suffix in [
            "", ".voip", ".complication", ".pushkit.fileprovider", ".push-type.liveactivity", ".location-query",
            ".voip-ptt", ".push-type.widgets",
        ] {
            #expect(
                allowed.contains(chatApp + suffix) && allowed.contains("com.example.chat.beta" + suffix), "\(suffix)")
        }
        #expect(!allowed.contains("com.example.bank"))
        #expect(allowed.count == 16)
    }

    @Test func aTopicOfAnotherAppInATargetIsThatTargetsTopicNotAllowed() throws {
        let foreign = try event(
            #"{"id": "e", "targets": [{"provider": "apns", "token": "ab", "apns_topic": "com.example.bank"}]}"#)
        let rejection = try #require(refusal(foreign))
        #expect(rejection.reason == "TopicNotAllowed")
        #expect(
            rejection.message
                == #"apns-topic "com.example.bank" from the device's topic (apns_topic or its registration's topic) "#
                + "is not one of the app's allowed topics (apns.topic and apns.allowed_topics, each with its push-type suffixes)"
        )
        // The beta build's topic is listed, and its VoIP topic with it.
        let beta = try event(
            #"{"id": "e", "push_type": "voip", "data": {"k": 1}, "targets": [{"provider": "apns", "token": "ab", "apns_topic": "com.example.chat.beta"}]}"#
        )
        #expect(refusal(beta) == nil)
    }

    @Test func aTopicInTheRawHeadersIsCheckedToo() throws {
        let raw = try event(
            #"{"id": "e", "provider": "apns", "token": "ab", "apns": {"headers": {"apns-topic": "com.example.bank.voip"}}}"#
        )
        let rejection = try #require(refusal(raw))
        #expect(
            rejection.description.hasPrefix(
                #"TopicNotAllowed: apns-topic "com.example.bank.voip" from event field apns.headers.apns-topic"#))
        let own = try event(
            #"{"id": "e", "provider": "apns", "token": "ab", "apns": {"headers": {"apns-topic": "com.example.chat.complication"}}}"#
        )
        #expect(refusal(own) == nil)
    }

    @Test func theProviderSendsOnlyItsConfiguredTopics() {
        let configuration = APNsProviderConfiguration(
            bundleID: chatApp, baseURL: "https://127.0.0.1:1",
            authentication: .certificate(path: "unused.pem", password: nil))
        #expect(configuration.allowedTopics == APNsTopic.allowed(bundleIDs: [chatApp]))
    }

    /// Apple's tokens are 32 bytes today and may grow; 4 KiB of hex is no token.
    @Test func aTokenOverTheLengthCapIsAnInvalidTokenNamingTheLimit() throws {
        let long = String(repeating: "ab", count: 2048)
        let decoded = try event(
            #"{"id": "e", "targets": [{"provider": "apns", "token": "\#(long)"}, {"provider": "apns", "token": "\#(String(repeating: "a", count: 400))"}]}"#
        )
        #expect(decoded.targets.map(\.address.value) == [String(repeating: "a", count: 400)])
        #expect(
            decoded.invalidTargets.map(\.error.description) == [
                "targets[0].token: is 4096 hex digits, over the limit of 400 for an APNs device token (200 bytes; today's tokens are 64)"
            ])
        #expect(decoded.invalidTargets.map(\.verdict) == [.invalidToken])
        #expect(
            APNsTargetRules().registrationProblem(.token(long))
                == "the device token is 4096 hex digits, over the limit of 400 for an APNs device token (200 bytes; today's tokens are 64)"
        )
        #expect(APNsTargetRules().registrationProblem(.token(String(repeating: "a", count: 64))) == nil)
    }
}
