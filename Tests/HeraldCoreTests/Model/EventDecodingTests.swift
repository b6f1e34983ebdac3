import HeraldCoreTestSupport
import Testing
@testable import HeraldCore

@Suite("Event decoding: accepted events")
struct EventDecodingTests {
    /// A provider's own top-level section is decoded by its rules' hook into
    /// its own value, which the event holds without reading; a section no
    /// provider in the catalog reads is an unknown field.
    @Test func aProvidersSectionIsDecodedByItsRulesAndHeldAsItsValue() throws {
        let rules = StandInProviderRules(
            Provider(rawValue: "standin"), displayName: "Stand-in", addressKinds: [.token], eventSection: "standin")
        let catalog = ProviderCatalog([rules])
        func decode(_ text: String) throws(EventError) -> Event {
            try Event.decode(Array(text.utf8), fallbackID: "m", providers: catalog)
        }
        let event = try decode(#"{"provider":"standin","token":"t","standin":{"a":1}}"#)
        #expect(event.providerSections["standin"]?.as(JSONObject.self) == ["a": 1])
        #expect(try decode(#"{"provider":"standin","token":"t"}"#).providerSections.isEmpty)
        #expect(throws: EventError.self) { try decode(#"{"provider":"standin","token":"t","standin":1}"#) }
        #expect(throws: EventError.self) { try decode(#"{"provider":"standin","token":"t","apns":{}}"#) }
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
        #expect(event.excluded(providers: .standIns).contains(event.targets[0]))
        #expect(!event.excluded(providers: .standIns).contains(event.targets[1]))
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
        let excluded = event.excluded(providers: .standIns)
        #expect(event.targets.map(excluded.contains) == [true, false, false])
    }
}
