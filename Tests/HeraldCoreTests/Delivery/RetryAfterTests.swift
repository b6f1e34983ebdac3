import HeraldCore
import Testing

@Suite struct RetryAfterTests {
    let now = Timestamp(rfc3339: "2026-11-30T10:00:00Z")!

    @Test func delaySecondsAreTakenAsGiven() {
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
    }

    @Test func httpDateIsCountedFromNow() {
        #expect(RetryAfter.parse("Mon, 30 Nov 2026 10:01:30 GMT", now: now) == .seconds(90))
        #expect(RetryAfter.parse("Mon, 30 Nov 2026 09:59:00 GMT", now: now) == .zero)
    }

    @Test func anythingElseIsIgnored() {
        for value in [
            "", "soon", "-5", "1.5", "30 Nov 2026 10:01:30 GMT", "Mon, 30 Foo 2026 10:01:30 GMT",
            "Mon, 30 Nov 2026 10:01:30 PST",
        ] {
            #expect(RetryAfter.parse(value, now: now) == nil, "\(value)")
        }
    }
}
