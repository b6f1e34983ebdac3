import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviders
import Testing

/// Channel targets (`{"channel": ...}`) beside device targets, and devices
/// that carry the channel they were reached through (a retry's targets).
@Suite struct ChannelTargetDecodingTests {
    func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": \#(targets)}"#.utf8), fallbackID: "m", providers: .registered)
    }

    @Test func channelTargetsAreKeptApartFromDevices() throws {
        let event = try decode(
            #"""
            [{"channel": "user:42"}, {"channel": "room:général", "providers": ["apns", "android"]},
             {"provider": "fcm", "token": "t-1", "channel": "user:42"}, {"provider": "fcm", "token": "t-2"}]
            """#)
        #expect(
            event.channels == [
                ChannelTarget(channel: "user:42"), ChannelTarget(channel: "room:général", providers: [.apns, .fcm]),
            ])
        #expect(
            event.targets == [
                Target(provider: .fcm, address: .token("t-1"), channel: "user:42"),
                Target(provider: .fcm, address: .token("t-2")),
            ])
        #expect(event.invalidTargets.isEmpty)
    }

    @Test func aBadChannelTargetIsThatTargetsProblemOnly() throws {
        let long = String(repeating: "x", count: 256)
        let event = try decode(
            #"""
            [{"channel": ""}, {"channel": "\#(long)"}, {"channel": "a\u0007b"}, {"channel": 42},
             {"channel": "x", "providers": ["hms"]}, {"channel": "x", "providers": []}, {"channel": "x", "token": "t"},
             {"provider": "fcm", "token": "t", "channel": ""}, {"channel": "ok"}]
            """#)
        #expect(event.channels == [ChannelTarget(channel: "ok")])
        #expect(
            event.invalidTargets.map(\.error.description) == [
                "targets[0].channel: is empty; a channel name has 1 to 255 bytes",
                "targets[1].channel: \"\(long.truncatedForMessage)\" is 256 bytes, over the limit of 255",
                "targets[2].channel: has a control character (U+0007) at byte 1; control characters are not allowed",
                "targets[3].channel: expected a string, found 42",
                #"targets[4].providers[0]: expected a provider name (apns, fcm, webpush, ios or android), found "hms""#,
                "targets[5].providers: expected a non-empty array of provider names (apns, fcm, webpush, ios or android), found an array",
                "targets[6].token: unknown field (expected channel or providers)",
                "targets[7].channel: is empty; a channel name has 1 to 255 bytes",
            ])
        #expect(event.invalidTargets.map(\.channel) == ["", long, "a\u{07}b", nil, "x", "x", "x", ""])
        #expect(event.invalidTargets.allSatisfy { $0.verdict == .failed })
    }

    @Test func anOutcomeEchoesTheChannelAndSaysWhenTheDeviceWasUnregistered() throws {
        let event = try decode(#"[{"provider": "apns", "token": "ab", "channel": "user:42"}]"#)
        let target = try #require(event.targets.first)
        var outcome = Outcome(.invalidToken, event: event, target: target, at: Timestamp(seconds: 1_796_032_800))
        outcome.unregistered = true
        let text = String(decoding: outcome.encoded, as: UTF8.self)
        #expect(
            text.contains(#""token":"ab","channel":"user:42","status":"invalid_token","unregistered":true,"#), "\(text)"
        )
        let decoded = try Outcome.decode(outcome.encoded, providers: .registered)
        #expect(decoded.channel == "user:42" && decoded.unregistered)
    }

    /// Bidi controls and zero-width characters (Unicode format characters)
    /// make a channel that looks like `user:42` but is another: refused.
    @Test func formatCharactersAreRefusedInAChannelTarget() throws {
        let event = try decode(
            #"""
            [{"channel": "user:42\u202e"}, {"channel": "user:\u200b42"}, {"channel": "\ufeffuser:42"}, {"channel": "user:42"}]
            """#)
        #expect(event.channels == [ChannelTarget(channel: "user:42")])
        #expect(
            event.invalidTargets.map(\.error.description) == [
                "targets[0].channel: has a format character (U+202E) at byte 7; format characters (bidi controls, zero-width) are not allowed",
                "targets[1].channel: has a format character (U+200B) at byte 5; format characters (bidi controls, zero-width) are not allowed",
                "targets[2].channel: has a format character (U+FEFF) at byte 0; format characters (bidi controls, zero-width) are not allowed",
            ])
    }

    /// `é` as one scalar (NFC) and as `e` + U+0301 (NFD) name one channel, stored in NFC.
    @Test func aChannelTargetIsReadInNFC() throws {
        let event = try decode(
            #"""
            [{"channel": "caf\u0065\u0301"}, {"provider": "fcm", "token": "t-1", "channel": "caf\u0065\u0301"}]
            """#)
        #expect(event.channels.map { Array($0.channel.utf8) } == [Array("caf\u{E9}".utf8)])
        #expect(event.targets.map { $0.channel.map { Array($0.utf8) } } == [Array("caf\u{E9}".utf8)])
    }
}

/// An APNs device target's own `environment` and `apns_topic` (a
/// registration's overrides, kept in its retries, or given by a publisher).
@Suite struct APNsDeviceTargetTests {
    func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": \#(targets)}"#.utf8), fallbackID: "m", providers: .registered)
    }

    @Test func anAPNsTargetMayNameItsEnvironmentAndTopic() throws {
        let event = try decode(
            #"[{"provider": "apns", "token": "ab", "environment": "sandbox", "apns_topic": "com.example.chat.beta"}]"#)
        #expect(
            event.targets == [
                Target(
                    provider: .apns, address: .token("ab"),
                    apns: APNsDeviceOverrides(environment: .sandbox, topic: "com.example.chat.beta"))
            ])
    }

    @Test func aBadEnvironmentOrTopicIsThatTargetsProblem() throws {
        let event = try decode(
            #"""
            [{"provider": "apns", "token": "ab", "environment": "staging"}, {"provider": "apns", "token": "ab", "apns_topic": "a b"},
             {"provider": "fcm", "token": "t", "environment": "sandbox"}, {"provider": "apns", "token": "cd"}]
            """#)
        #expect(event.targets == [Target(provider: .apns, address: .token("cd"))])
        #expect(
            event.invalidTargets.map(\.error.description) == [
                #"targets[0].environment: expected production or sandbox, found "staging""#,
                "targets[1].apns_topic: has a character other than printable ASCII (a bundle ID such as com.example.app)",
                "targets[2].environment: is for APNs targets only, not fcm targets",
            ])
    }

}
