import HeraldCore
import HeraldCoreTestSupport
import Testing

/// Channel targets (`{"channel": ...}`) beside device targets, and devices
/// that carry the channel they were reached through (a retry's targets).
@Suite struct ChannelTargetDecodingTests {
    func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": \#(targets)}"#.utf8), fallbackID: "m", providers: .standIns)
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

    @Test func anOutcomeEchoesTheChannelAndSaysWhenTheDeviceWasUnregistered() throws {
        let event = try decode(#"[{"provider": "apns", "token": "ab", "channel": "user:42"}]"#)
        let target = try #require(event.targets.first)
        var outcome = Outcome(.invalidToken, event: event, target: target, at: Timestamp(seconds: 1_796_032_800))
        outcome.unregistered = true
        let text = String(decoding: outcome.encoded, as: UTF8.self)
        #expect(
            text.contains(#""token":"ab","channel":"user:42","status":"invalid_token","unregistered":true,"#), "\(text)"
        )
        let decoded = try Outcome.decode(outcome.encoded, providers: .standIns)
        #expect(decoded.channel == "user:42" && decoded.unregistered)
    }

    /// `include_device_attributes` is the event's; `device` is a channel
    /// device's registered attributes, which a retry carries beside its
    /// channel and its outcome echoes after the channel.
    @Test func deviceAttributesRideWithAChannelDeviceIntoItsOutcome() throws {
        let event = try Event.decode(
            Array(
                #"""
                {"id": "e", "app": "chat", "include_device_attributes": true, "targets": [
                 {"provider": "apns", "token": "ab", "channel": "user:42",
                  "device": {"timezone": "Europe/Paris", "locale": "fr-FR", "attributes": {"plan": "pro"}}}]}
                """#.utf8), fallbackID: "m", providers: .standIns)
        #expect(event.includeDeviceAttributes)
        let target = try #require(event.targets.first)
        let device: JSONObject = [
            "timezone": "Europe/Paris", "locale": "fr-FR", "attributes": .object(["plan": "pro"]),
        ]
        #expect(target.deviceAttributes == device)
        #expect(target.eventJSON(providers: .standIns).objectValue?["device"] == .object(device))
        let outcome = Outcome(.delivered, event: event, target: target, at: Timestamp(seconds: 1_796_032_800))
        let text = String(decoding: outcome.encoded, as: UTF8.self)
        #expect(
            text.contains(
                #""channel":"user:42","device":{"timezone":"Europe/Paris","locale":"fr-FR","attributes":{"plan":"pro"}},"status""#
            ), "\(text)")
        #expect(try Outcome.decode(outcome.encoded, providers: .standIns).deviceAttributes == device)
        let plain = try decode(#"[{"channel": "user:42"}]"#)
        #expect(!plain.includeDeviceAttributes)
    }

    @Test func aTargetsDeviceAttributesNeedItsChannelAndFitTheirLimit() throws {
        let event = try decode(
            #"""
            [{"provider": "fcm", "token": "t-1", "device": {"locale": "en"}},
             {"provider": "fcm", "token": "t-2", "channel": "user:42", "device": {"locale": "\#(String(repeating: "x", count: 16 << 10))"}},
             {"provider": "fcm", "token": "t-3", "channel": "user:42", "device": "en"}]
            """#)
        #expect(event.targets.isEmpty)
        #expect(
            event.invalidTargets.map(\.error.description) == [
                #"targets[0].device: is the registered attributes of a device a channel reached; give it only with "channel""#,
                "targets[1].device: is 16397 bytes serialized, over the limit of 16384",
                "targets[2].device: expected an object, found \"en\"",
            ])
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
