import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviders
import Testing

/// Refused events and targets whose messages name the registered providers:
/// their names and aliases, every provider's address fields and top-level
/// sections, and each provider's own checks of its addresses.
@Suite("Event decoding: refused events and their messages, every provider")
struct RegisteredEventErrorTests {
    /// A valid event with `fields` added.
    private func event(_ fields: String) -> String {
        #"{"provider":"fcm","token":"t",\#(fields)}"#
    }

    private func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": \#(targets)}"#.utf8), fallbackID: "m", providers: .registered)
    }

    @Test func unknownTopLevelFieldsAreRejectedWithASuggestion() {
        #expect(eventError(event(#""colapse_id":"x""#)) == #"colapse_id: unknown field (did you mean "collapse_id"?)"#)
        #expect(eventError(event(#""expire_at":"x""#)) == #"expire_at: unknown field (did you mean "expires_at"?)"#)
        #expect(
            eventError(event(#""zzzzzz":1"#))
                == "zzzzzz: unknown field (expected id, app, targets, provider, token, fid, topic, condition, subscription, notification, data, push_type, priority, ttl, expires_at, collapse_id, content_available, mutable_content, exclude_tokens, apns, fcm, webpush, context, debug or include_device_attributes)"
        )
        #expect(
            eventError(event(#""a.b\n":1"#))
                == #""a.b\n": unknown field (expected id, app, targets, provider, token, fid, topic, condition, subscription, notification, data, push_type, priority, ttl, expires_at, collapse_id, content_available, mutable_content, exclude_tokens, apns, fcm, webpush, context, debug or include_device_attributes)"#
        )
    }

    /// A problem inside one target is that target's alone: the event decodes,
    /// with the target among `invalidTargets` (what it names kept for its outcome).
    @Test(arguments: [
        (#"{"targets":[1]}"#, "targets[0]: expected an object, found 1"),
        (
            #"{"targets":[{"provider":"fcm","token":"a"},{"provider":"fcm","token":"a","topic":"b"}]}"#,
            #"targets[1]: has both "token" and "topic"; give exactly one"#
        ),
        (
            #"{"targets":[{"provider":"fcm","token":"a","topic":"b","condition":"c"}]}"#,
            #"targets[0]: has "token", "topic" and "condition"; give exactly one"#
        ),
        (
            #"{"targets":[{"provider":"fcm"}]}"#,
            #"targets[0]: has none of "token", "fid", "topic", "condition" or "subscription"; give exactly one"#
        ),
        (#"{"targets":[{"token":"a"}]}"#, "targets[0].provider: missing; expected apns, fcm, webpush, ios or android"),
        (
            #"{"targets":[{"provider":5,"token":"a"}]}"#,
            "targets[0].provider: expected a provider name (apns, fcm, webpush, ios or android), found 5"
        ),
        (
            #"{"targets":[{"provider":"apn","token":"ab"}]}"#,
            #"targets[0].provider: unknown provider "apn" (expected apns, fcm, webpush, ios or android; did you mean "apns"?)"#
        ),
        (
            #"{"targets":[{"provider":"APNS","token":"ab"}]}"#,
            #"targets[0].provider: unknown provider "APNS" (expected apns, fcm, webpush, ios or android; did you mean "apns"?)"#
        ),
        (
            #"{"targets":[{"provider":"huawei","token":"ab"}]}"#,
            #"targets[0].provider: unknown provider "huawei" (expected apns, fcm, webpush, ios or android)"#
        ),
        (
            #"{"targets":[{"provider":"apns","topic":"news"}]}"#,
            #"targets[0].topic: APNs has no topics; an APNs target needs a device "token""#
        ),
        (
            #"{"targets":[{"provider":"apns","condition":"c"}]}"#,
            #"targets[0].condition: APNs has no conditions; an APNs target needs a device "token""#
        ),
        (#"{"targets":[{"provider":"fcm","token":7}]}"#, "targets[0].token: expected a non-empty string, found 7"),
        (
            #"{"targets":[{"provider":"fcm","topic":"/topics/news"}]}"#,
            #"targets[0].topic: give the topic name without the "/topics/" prefix"#
        ),
        (
            #"{"targets":[{"provider":"fcm","topic":"a b"}]}"#,
            #"targets[0].topic: expected an FCM topic name (letters, digits, '-', '_', '.', '~', '%'), found "a b""#
        ),
        (#"{"targets":[{"provider":"fcm","topic":""}]}"#, #"targets[0].topic: expected a non-empty string, found """#),
        (#"{"targets":[{"provider":"fcm","tokn":"a"}]}"#, #"targets[0].tokn: unknown field (did you mean "token"?)"#),
        (
            #"{"provider":"fcm"}"#,
            #"event: has none of "token", "fid", "topic", "condition" or "subscription"; give exactly one"#
        ),
        (#"{"token":"ab"}"#, "provider: missing; expected apns, fcm, webpush, ios or android"),
        (#"{"provider":"android","token":"a","topic":"b"}"#, #"event: has both "token" and "topic"; give exactly one"#),
        (#"{"provider":"ios","topic":"b"}"#, #"topic: APNs has no topics; an APNs target needs a device "token""#),
        (
            #"{"targets":[{"provider":"apns","fid":"cR1Zm2QmSSmvP3bqAbcDef"}]}"#,
            #"targets[0].fid: APNs has no fids; an APNs target needs a device "token""#
        ),
        (
            #"{"targets":[{"provider":"fcm","token":"a","fid":"cR1Zm2QmSSmvP3bqAbcDef"}]}"#,
            #"targets[0]: has both "token" and "fid"; give exactly one"#
        ),
        (
            #"{"targets":[{"provider":"fcm","token":"a","fid":"b","topic":"c","condition":"d"}]}"#,
            #"targets[0]: has "token", "fid", "topic" and "condition"; give exactly one"#
        ),
        (#"{"targets":[{"provider":"fcm","fid":22}]}"#, "targets[0].fid: expected a non-empty string, found 22"),
        (
            #"{"provider":"android","fid":"cR1Zm2QmSSmvP3bqAbcDef","condition":"c"}"#,
            #"event: has both "fid" and "condition"; give exactly one"#
        ),
    ])
    func aBadTargetFailsAloneNamingTheField(body: String, message: String) throws {
        let event = try Event.decode(Array(body.utf8), fallbackID: "m", providers: .registered)
        let invalid = try #require(event.invalidTargets.first)
        #expect(invalid.error.description == message)
        #expect(invalid.verdict == .failed)
        #expect(invalid.status == .failed)
        #expect(invalid.reason == message)
        #expect(invalid.detail == nil)
    }

    /// A token that can never work is `invalid_token` / `BadDeviceToken`, so upstream deletes it.
    @Test(arguments: [
        (
            #"{"targets":[{"provider":"apns","token":"xyz"}]}"#,
            #"targets[0].token: expected a hexadecimal APNs device token, found "xyz""#
        ),
        (
            #"{"targets":[{"provider":"apns","token":""}]}"#,
            "targets[0].token: is empty; a device token cannot be empty"
        ),
        (
            #"{"targets":[{"provider":"fcm","token":"a b"}]}"#,
            #"targets[0].token: expected an FCM registration token (printable ASCII, no spaces), found "a b""#
        ),
        (
            #"{"provider":"ios","token":"not-a-token"}"#,
            #"token: expected a hexadecimal APNs device token, found "not-a-token""#
        ),
        (
            #"{"targets":[{"provider":"fcm","fid":"cR1Zm2Qm+SmvP3bq/bcDef"}]}"#,
            #"targets[0].fid: expected a Firebase installation ID (URL-safe base64: letters, digits, '-', '_'), found "cR1Zm2Qm+SmvP3bq/bcDef""#
        ),
        (
            #"{"targets":[{"provider":"fcm","fid":""}]}"#,
            "targets[0].fid: is empty; a Firebase installation ID cannot be empty"
        ),
        (
            #"{"provider":"android","fid":"cR1Zm2QmSSmvP3bqAbcDef=="}"#,
            #"fid: expected a Firebase installation ID (URL-safe base64: letters, digits, '-', '_'), found "cR1Zm2QmSSmvP3bqAbcDef==""#
        ),
    ])
    func aTokenThatCanNeverWorkIsAnInvalidToken(body: String, message: String) throws {
        let event = try Event.decode(Array(body.utf8), fallbackID: "m", providers: .registered)
        let invalid = try #require(event.invalidTargets.first)
        #expect(invalid.verdict == .invalidToken)
        #expect(invalid.status == .invalidToken)
        #expect(invalid.reason == "BadDeviceToken")
        #expect(invalid.detail == message)
    }

    @Test func goodTargetsSurviveABadOneWithWhatItNamed() throws {
        let body =
            #"{"targets":[{"provider":"apns","token":"a1"},{"provider":"apns","token":"not-a-token"},"#
            + #"{"provider":"fcm","topic":"bad topic!"},{"provider":"fcm","token":"t"}]}"#
        let event = try Event.decode(Array(body.utf8), fallbackID: "m", providers: .registered)
        #expect(
            event.targets == [
                Target(provider: .apns, address: .token("a1")), Target(provider: .fcm, address: .token("t")),
            ])
        #expect(event.invalidTargets.map(\.index) == [1, 2])
        #expect(event.invalidTargets.map(\.provider) == [.apns, .fcm])
        #expect(event.invalidTargets.map(\.address) == [.token("not-a-token"), .topic("bad topic!")])
        #expect(event.invalidTargets.map(\.status) == [.invalidToken, .failed])
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
}
