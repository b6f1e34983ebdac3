import HeraldAPNs
import HeraldFCM
import HeraldProviders
import Testing
@testable import HeraldCore

@Suite("Event decoding: accepted events")
struct EventDecodingTests {
    /// An event using every field docs/event-model.md describes, with a real 64-hex APNs token.
    static let everyFieldExample = """
        {
          "id": "evt-7f3a",
          "app": "chat",
          "targets": [
            {"provider": "apns", "token": "\(apnsToken)"},
            {"provider": "fcm",  "token": "fcm-registration-token"},
            {"provider": "fcm",  "topic": "news"},
            {"provider": "fcm",  "condition": "'news' in topics && 'fr' in topics"}
          ],
          "notification": {
            "title": "New message", "subtitle": "in #general", "body": "Alice: hi",
            "badge": 3, "sound": "default", "image": "https://cdn.example.com/a.jpg",
            "category": "MESSAGE", "thread_id": "t-42",
            "title_loc_key": "...", "title_loc_args": [], "loc_key": "...", "loc_args": []
          },
          "data": {"screen": "chat", "thread_id": 42},
          "push_type": "alert",
          "priority": "high",
          "ttl": 3600,
          "collapse_id": "thread-42",
          "content_available": false,
          "mutable_content": false,
          "exclude_tokens": ["token-of-the-sender"],
          "apns": {"headers": {"apns-...": "..."}, "payload": {"aps": {"interruption-level": "time-sensitive"}}},
          "fcm":  {"android": {"notification": {"channel_id": "messages"}}, "apns": {}, "webpush": {}, "fcm_options": {}},
          "context": {"user_id": "u-1"}
        }
        """

    @Test func theEveryFieldExampleDecodesWithEveryField() throws {
        let event = try decodeEvent(Self.everyFieldExample)
        #expect(event.id == "evt-7f3a")
        #expect(event.app == "chat")
        #expect(
            event.targets == [
                Target(provider: .apns, address: .token(apnsToken)),
                Target(provider: .fcm, address: .token("fcm-registration-token")),
                Target(provider: .fcm, address: .topic("news")),
                Target(provider: .fcm, address: .condition("'news' in topics && 'fr' in topics")),
            ])
        #expect(
            event.notification
                == Event.Notification(
                    title: "New message", subtitle: "in #general", body: "Alice: hi", badge: 3,
                    sound: Event.Sound(name: "default"), image: "https://cdn.example.com/a.jpg", category: "MESSAGE",
                    threadID: "t-42", titleLocKey: "...", titleLocArgs: [], locKey: "...", locArgs: []
                ))
        #expect(event.data == ["screen": "chat", "thread_id": 42])
        #expect(event.pushType == .alert)
        #expect(event.priority == .high)
        #expect(event.expiry == .ttl(seconds: 3600))
        #expect(event.collapseID == "thread-42")
        #expect(event.contentAvailable == false)
        #expect(event.mutableContent == false)
        #expect(event.excludeTokens == ["token-of-the-sender"])
        #expect(
            event.apns
                == APNsOverrides(
                    headers: ["apns-...": "..."], payload: ["aps": ["interruption-level": "time-sensitive"]]
                ))
        #expect(
            event.fcm == [
                "android": ["notification": ["channel_id": "messages"]], "apns": .object([:]),
                "webpush": .object([:]), "fcm_options": .object([:]),
            ])
        #expect(event.context == ["user_id": "u-1"])
        #expect(event.resolvedPushType == .alert)
        #expect(event.resolvedPriority == .high)
    }

    @Test func theRawBufferEntryPointDecodesTheSameEvent() throws {
        let bytes = Array(Self.everyFieldExample.utf8)
        let fromRaw = try bytes.withUnsafeBytes { body in
            try Event.decode(body, fallbackID: "x", providers: .registered)
        }
        #expect(fromRaw == (try decodeEvent(Self.everyFieldExample)))
    }

    @Test func aMinimalEventGetsTheFallbackIDAndDefaults() throws {
        let event = try decodeEvent(#"{"targets":[{"provider":"fcm","token":"t"}]}"#)
        #expect(event.id == "msg-1")
        #expect(event.app == nil)
        #expect(event.notification == nil)
        #expect(event.expiry == nil)
        #expect(event.contentAvailable == false)
        #expect(event.excludeTokens.isEmpty)
        #expect(event.resolvedPushType == .alert)
        #expect(event.debug == false)
    }

    @Test func debugAsksForATraceAndNullMeansOff() throws {
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t","debug":true}"#).debug)
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t","debug":false}"#).debug == false)
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t","debug":null}"#).debug == false)
    }

    @Test func theShorthandProviderAndTokenMakeOneTarget() throws {
        let event = try decodeEvent(#"{"provider":"apns","token":"\#(apnsToken)","notification":{"body":"hi"}}"#)
        #expect(event.targets == [Target(provider: .apns, address: .token(apnsToken))])
        let topic = try decodeEvent(#"{"provider":"fcm","topic":"news"}"#)
        #expect(topic.targets == [Target(provider: .fcm, address: .topic("news"))])
        let condition = try decodeEvent(#"{"provider":"fcm","condition":"'a' in topics"}"#)
        #expect(condition.targets == [Target(provider: .fcm, address: .condition("'a' in topics"))])
        let fid = try decodeEvent(#"{"provider":"android","fid":"cR1Zm2QmSSmvP3bq-_cDef"}"#)
        #expect(fid.targets == [Target(provider: .fcm, address: .fid("cR1Zm2QmSSmvP3bq-_cDef"))])
    }

    /// A FID target names a device by its Firebase installation ID: kept as
    /// given (base64 is case-sensitive), of any length (FCM judges that), and
    /// its field name is `fid` wherever addresses are written.
    @Test func anFCMTargetMayNameADeviceByItsFID() throws {
        let event = try decodeEvent(
            #"{"targets":[{"provider":"fcm","fid":"cR1Zm2QmSSmvP3bqAbcDef"},{"provider":"fcm","fid":"eUx0ZzQ3LTY"},"#
                + #"{"provider":"fcm","fid":"c+not/base64"},{"provider":"fcm","token":"t","fid":null}]}"#)
        #expect(
            event.targets == [
                Target(provider: .fcm, address: .fid("cR1Zm2QmSSmvP3bqAbcDef")),
                Target(provider: .fcm, address: .fid("eUx0ZzQ3LTY")),
                Target(provider: .fcm, address: .token("t")),
            ])
        #expect(event.targets.map(\.address.field) == ["fid", "fid", "token"])
        #expect(event.targets.map(\.address.isDevice) == [true, true, true])
        #expect(event.targets[0].token == nil)
        let invalid = try #require(event.invalidTargets.first)
        #expect(invalid.index == 2)
        #expect(invalid.provider == .fcm)
        #expect(invalid.address == .fid("c+not/base64"))
        #expect(invalid.status == .invalidToken)
    }

    @Test func iosAndAndroidAreAliasesOfAPNsAndFCM() throws {
        let event = try decodeEvent(
            #"{"targets":[{"provider":"ios","token":"ABCDEF0123"},{"provider":"android","token":"x"}]}"#)
        #expect(event.targets.map(\.provider) == [.apns, .fcm])
        let shorthand = try decodeEvent(#"{"provider":"ios","token":"ab"}"#)
        #expect(shorthand.targets.first?.provider == .apns)
    }

    @Test func nullMeansAbsent() throws {
        let event = try decodeEvent(
            #"{"id":null,"app":null,"ttl":null,"notification":null,"targets":[{"provider":"fcm","token":"t","topic":null}]}"#
        )
        #expect(event.id == "msg-1")
        #expect(event.app == nil)
        #expect(event.expiry == nil)
        #expect(event.notification == nil)
    }

    @Test func aCriticalSoundDecodesFromAnObject() throws {
        let event = try decodeEvent(
            #"{"provider":"fcm","token":"t","notification":{"sound":{"critical":true,"name":"alarm.caf","volume":0.8}}}"#
        )
        let sound = try #require(event.notification?.sound)
        #expect(sound == Event.Sound(name: "alarm.caf", critical: true, volume: 0.8))
        #expect(sound.needsDictionary)
        #expect(!Event.Sound(name: "default").needsDictionary)
    }

    @Test func apnsHeaderNamesAreLowerCased() throws {
        let event = try decodeEvent(#"{"provider":"fcm","token":"t","apns":{"headers":{"APNs-Priority":"5"}}}"#)
        #expect(event.apns?.headers == ["apns-priority": "5"])
    }

    @Test(arguments: [
        (#""priority":"normal""#, Priority.normal), (#""priority":"low""#, .low),
        (#""priority":10"#, .high), (#""priority":5"#, .normal), (#""priority":1"#, .low),
    ])
    func prioritiesAcceptNamesAndAPNsNumbers(field: String, expected: Priority) throws {
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t",\#(field)}"#).priority == expected)
    }

    @Test func everyPushTypeDecodes() throws {
        for pushType in PushType.allCases {
            let event = try decodeEvent(#"{"provider":"fcm","token":"t","push_type":"\#(pushType.rawValue)"}"#)
            #expect(event.pushType == pushType)
        }
    }

    @Test func integralTTLsWrittenAsDecimalsAreAccepted() throws {
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t","ttl":3600.0}"#).expiry == .ttl(seconds: 3600))
        #expect(try decodeEvent(#"{"provider":"fcm","token":"t","ttl":0}"#).expiry == .ttl(seconds: 0))
    }

    @Test func excludedTokensMatchOnlyTokenTargets() throws {
        let event = try decodeEvent(
            #"{"targets":[{"provider":"fcm","token":"me"},{"provider":"fcm","topic":"me"}],"exclude_tokens":["me"]}"#)
        #expect(event.excluded(providers: .registered).contains(event.targets[0]))
        #expect(!event.excluded(providers: .registered).contains(event.targets[1]))
    }

    /// `exclude_tokens` names devices: a FID listed there, exactly as written,
    /// excludes its FID target; another case of it does not (base64 is
    /// case-sensitive), and neither does listing one of the device's tokens.
    @Test func excludedTokensMatchAFIDOnlyAsWritten() throws {
        let event = try decodeEvent(
            #"{"targets":[{"provider":"fcm","fid":"cR1Zm2QmSSmvP3bqAbcDef"},"#
                + #"{"provider":"fcm","fid":"dR1Zm2QmSSmvP3bqAbcDef"},{"provider":"fcm","fid":"eR1Zm2QmSSmvP3bqAbcDef"}],"#
                + #""exclude_tokens":["cR1Zm2QmSSmvP3bqAbcDef","DR1ZM2QMSSMVP3BQABCDEF","fcm-token-of-the-same-phone"]}"#
        )
        let excluded = event.excluded(providers: .registered)
        #expect(event.targets.map(excluded.contains) == [true, false, false])
    }
}
