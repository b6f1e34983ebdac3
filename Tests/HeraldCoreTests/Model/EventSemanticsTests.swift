import Testing
@testable import HeraldCore

@Suite("Event semantics: expiry, push type, priority")
struct EventSemanticsTests {
    private func event(_ fields: String) throws -> Event {
        try decodeEvent(#"{"provider":"fcm","token":"t"\#(fields.isEmpty ? "" : ",")\#(fields)}"#)
    }

    @Test func aTTLCountsFromWhenTheEventWasFirstReceived() throws {
        let event = try event(#""ttl":60"#)
        #expect(event.expiry == .ttl(seconds: 60))
        #expect(event.expiresAt(receivedAt: novemberThirtieth) == novemberThirtieth + .seconds(60))
        #expect(!event.isExpired(at: novemberThirtieth + .seconds(60), receivedAt: novemberThirtieth))
        #expect(event.isExpired(at: novemberThirtieth + .milliseconds(60_001), receivedAt: novemberThirtieth))
    }

    @Test func aZeroTTLIsSentOnceAndExpiredOnRetry() throws {
        let event = try event(#""ttl":0"#)
        #expect(!event.isExpired(at: novemberThirtieth, receivedAt: novemberThirtieth))
        #expect(event.isExpired(at: novemberThirtieth + .seconds(5), receivedAt: novemberThirtieth))
    }

    @Test func expiresAtIsAnAbsoluteTime() throws {
        let event = try event(#""expires_at":"2026-11-30T12:00:00+02:00""#)
        #expect(event.expiry == .at(novemberThirtieth))
        let longAgo = Timestamp(seconds: 0)
        #expect(event.expiresAt(receivedAt: longAgo) == novemberThirtieth)
        #expect(!event.isExpired(at: novemberThirtieth, receivedAt: longAgo))
        #expect(event.isExpired(at: novemberThirtieth + .nanoseconds(1), receivedAt: longAgo))
    }

    @Test func anEventWithoutExpiryNeverExpires() throws {
        let event = try event("")
        #expect(event.expiresAt(receivedAt: novemberThirtieth) == nil)
        #expect(!event.isExpired(at: Timestamp(seconds: .max), receivedAt: novemberThirtieth))
    }

    @Test func aHugeTTLSaturatesInsteadOfOverflowing() throws {
        let event = try event(#""ttl":9223372036854775807"#)
        #expect(!event.isExpired(at: Timestamp(seconds: .max - 1), receivedAt: novemberThirtieth))
    }

    @Test func contentAvailableAloneImpliesBackground() throws {
        let silent = try event(#""content_available":true"#)
        #expect(silent.pushType == nil)
        #expect(silent.resolvedPushType == .background)
        #expect(silent.resolvedPriority == .normal)
        let withData = try event(#""content_available":true,"data":{"k":"v"},"notification":{"image":"u"}"#)
        #expect(withData.resolvedPushType == .background)
    }

    @Test func contentAvailableWithSomethingVisibleStaysAnAlert() throws {
        #expect(try event(#""content_available":true,"notification":{"title":"t"}"#).resolvedPushType == .alert)
        #expect(try event(#""content_available":true,"notification":{"badge":0}"#).resolvedPushType == .alert)
        #expect(try event(#""content_available":true,"notification":{"sound":"default"}"#).resolvedPushType == .alert)
    }

    @Test func anExplicitPushTypeAlwaysWins() throws {
        let event = try event(#""content_available":true,"push_type":"voip""#)
        #expect(event.resolvedPushType == .voip)
        #expect(event.resolvedPriority == .high)
        #expect(try self.event(#""push_type":"background","priority":"high""#).resolvedPriority == .high)
    }

    @Test func backgroundPushesDefaultToNormalPriority() {
        #expect(PushType.allCases.filter { $0.defaultPriority == .normal } == [.background])
    }
}
