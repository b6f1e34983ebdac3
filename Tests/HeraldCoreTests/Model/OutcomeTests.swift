import HeraldCoreTestSupport
import Testing
@testable import HeraldCore

@Suite("Outcomes")
struct OutcomeTests {
    /// The example outcome of docs/event-model.md.
    private let documentedExample = Outcome(
        status: .invalidToken, eventID: "evt-7f3a", app: "chat", provider: .apns, address: .token("a1b2"),
        reason: "Unregistered", providerStatus: 410, invalidatedAt: novemberThirtieth,
        providerMessageID: "apns-id or FCM message name", attempt: 1, latencyMs: 12.4,
        at: Timestamp(seconds: 1_796_032_801, nanoseconds: 234_000_000), context: ["user_id": "u-1"]
    )

    @Test func theDocumentedExampleEncodesToTheDocumentedBytes() {
        let expected =
            #"{"event_id":"evt-7f3a","app":"chat","provider":"apns","token":"a1b2","status":"invalid_token","reason":"Unregistered","provider_status":410,"invalidated_at":"2026-11-30T10:00:00Z","provider_message_id":"apns-id or FCM message name","attempt":1,"latency_ms":12.4,"at":"2026-11-30T10:00:01.234Z","context":{"user_id":"u-1"}}"#
        #expect(String(decoding: documentedExample.encoded, as: UTF8.self) == expected)
        #expect(documentedExample.routingKey == "invalid_token.apns.chat")
    }

    @Test func absentFieldsAreOmittedAndAtAlwaysHasMilliseconds() {
        let outcome = Outcome(
            status: .rejected, eventID: "msg-1", reason: "targets: is empty; give at least one target",
            at: novemberThirtieth)
        let expected =
            #"{"event_id":"msg-1","status":"rejected","reason":"targets: is empty; give at least one target","attempt":1,"at":"2026-11-30T10:00:00.000Z"}"#
        #expect(outcome.jsonValue.jsonString == expected)
        #expect(outcome.routingKey == "rejected.unknown.unknown")
    }

    @Test func aRetryingOutcomeCarriesTheNextAttemptTime() {
        let outcome = Outcome(
            status: .retrying, eventID: "e", app: "chat", provider: .fcm, address: .topic("news"),
            reason: "UNAVAILABLE",
            providerStatus: 503, nextAttemptAt: novemberThirtieth + .milliseconds(30_500), attempt: 2,
            latencyMs: 3.0004, at: novemberThirtieth
        )
        let expected =
            #"{"event_id":"e","app":"chat","provider":"fcm","topic":"news","status":"retrying","reason":"UNAVAILABLE","provider_status":503,"next_attempt_at":"2026-11-30T10:00:30.500Z","attempt":2,"latency_ms":3.0,"at":"2026-11-30T10:00:00.000Z"}"#
        #expect(outcome.jsonValue.jsonString == expected)
    }

    @Test func conditionsAreEncodedUnderTheirOwnKey() {
        let outcome = Outcome(
            status: .delivered, eventID: "e", provider: .fcm, address: .condition("'a' in topics"),
            at: novemberThirtieth)
        #expect(outcome.jsonValue["condition"] == "'a' in topics")
        #expect(outcome.routingKey == "delivered.fcm.unknown")
    }

    /// A FID target's outcome carries `"fid"` where a token's carries
    /// `"token"`, in the same place, and decodes back to a `.fid` address.
    @Test func aFIDOutcomeRoundTripsUnderItsOwnKey() throws {
        let outcome = Outcome(
            status: .invalidToken, eventID: "e", app: "chat", provider: .fcm, address: .fid("cR1Zm2QmSSmvP3bqAbcDef"),
            reason: "UNREGISTERED", providerStatus: 404, attempt: 1, latencyMs: 2.5, at: novemberThirtieth)
        let expected =
            #"{"event_id":"e","app":"chat","provider":"fcm","fid":"cR1Zm2QmSSmvP3bqAbcDef","status":"invalid_token","reason":"UNREGISTERED","provider_status":404,"attempt":1,"latency_ms":2.5,"at":"2026-11-30T10:00:00.000Z"}"#
        #expect(String(decoding: outcome.encoded, as: UTF8.self) == expected)
        #expect(outcome.jsonValue.jsonString == expected)
        #expect(outcome.routingKey == "invalid_token.fcm.chat")
        let decoded = try Outcome.decode(Array(expected.utf8), providers: .standIns)
        #expect(decoded == outcome)
        #expect(decoded.address == .fid("cR1Zm2QmSSmvP3bqAbcDef"))
    }

    @Test(arguments: Outcome.Status.allCases)
    func routingKeysAreStatusProviderApp(status: Outcome.Status) {
        let outcome = Outcome(status: status, eventID: "e", app: "chat", provider: .fcm, at: novemberThirtieth)
        #expect(outcome.routingKey == "\(status.rawValue).fcm.chat")
    }

    @Test func routingKeysKeepThreeWordsWhateverTheAppName() {
        var outcome = Outcome(status: .failed, eventID: "e", app: "a.b*c#", provider: .apns, at: novemberThirtieth)
        #expect(outcome.routingKey == "failed.apns.a_b_c_")
        outcome.app = ""
        #expect(outcome.routingKey == "failed.apns.unknown")
    }

    @Test func anOutcomeForATargetCopiesTheEventsIdentity() throws {
        let event = try decodeEvent(
            #"{"id":"evt-1","app":"chat","provider":"ios","token":"\#(apnsToken)","context":{"k":[1]}}"#)
        let outcome = Outcome(.delivered, event: event, target: event.targets[0], attempt: 3, at: novemberThirtieth)
        #expect(outcome.eventID == "evt-1")
        #expect(outcome.app == "chat")
        #expect(outcome.provider == .apns)
        #expect(outcome.address == .token(apnsToken))
        #expect(outcome.attempt == 3)
        #expect(outcome.context == ["k": [1]])
    }

    @Test func encodedOutcomesDecodeBackToTheSameValue() throws {
        #expect(try Outcome.decode(documentedExample.encoded, providers: .standIns) == documentedExample)
        let minimal = Outcome(status: .expired, eventID: "e", at: Timestamp(seconds: 5, nanoseconds: 7_000_000))
        #expect(try Outcome.decode(minimal.encoded, providers: .standIns) == minimal)
    }

    @Test func theWrittenBytesAreTheTextOfTheJSONValue() {
        let minimal = Outcome(status: .expired, eventID: "e\"1\n", at: Timestamp(seconds: 5, nanoseconds: 7_000_000))
        for outcome in [documentedExample, minimal] {
            #expect(outcome.encoded == outcome.jsonValue.serialized, "\(outcome.jsonValue.jsonString)")
        }
    }

    @Test func decodingIgnoresUnknownFieldsAndDefaultsTheAttempt() throws {
        let outcome = try Outcome.decode(
            Array(#"{"event_id":"e","status":"dropped","at":"2026-11-30T10:00:00Z","future_field":1}"#.utf8),
            providers: .standIns)
        #expect(outcome == Outcome(status: .dropped, eventID: "e", attempt: 1, at: novemberThirtieth))
    }

    @Test(arguments: [
        (#"[]"#, "outcome: expected a JSON object, found an array"),
        (#"{"status":"delivered","at":"2026-11-30T10:00:00Z"}"#, "event_id: missing"),
        (#"{"event_id":"e","at":"2026-11-30T10:00:00Z"}"#, "status: missing"),
        (
            #"{"event_id":"e","status":"sent","at":"2026-11-30T10:00:00Z"}"#,
            #"status: unknown status "sent" (expected delivered, invalid_token, failed, retrying, expired, dropped or rejected)"#
        ),
        (#"{"event_id":"e","status":"failed"}"#, "at: missing"),
        (#"{"event_id":"e","status":"failed","at":"yesterday"}"#, #"at: expected an RFC 3339 time, found "yesterday""#),
        (
            #"{"event_id":"e","status":"failed","at":"2026-11-30T10:00:00Z","provider_status":"410"}"#,
            #"provider_status: expected an integer, found "410""#
        ),
        (
            #"{"event_id":"e","status":"failed","at":"2026-11-30T10:00:00Z","token":"a","topic":"b"}"#,
            #"topic: cannot be combined with "token"; an outcome has one address"#
        ),
        (
            #"{"event_id":"e","status":"failed","at":"2026-11-30T10:00:00Z","token":"a","fid":"b"}"#,
            #"fid: cannot be combined with "token"; an outcome has one address"#
        ),
        (#"{"event_id":"e","status":"failed","at":"2026-11-30T10:00:00Z","fid":7}"#, "fid: expected a string, found 7"),
        (
            #"{"event_id":"e","status":"failed","at":"2026-11-30T10:00:00Z","latency_ms":"1"}"#,
            #"latency_ms: expected a number, found "1""#
        ),
        ("{", "body: unexpected end of input at byte 1 (line 1, column 2): expected a string key or '}'"),
    ])
    func malformedOutcomesAreRefused(text: String, message: String) {
        do {
            _ = try Outcome.decode(Array(text.utf8), providers: .standIns)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == message)
        }
    }
}
