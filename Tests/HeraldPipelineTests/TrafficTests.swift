import HeraldCore
@testable import HeraldPipeline
import Testing

@Suite struct TokenBucketTests {
    @Test func aFullBucketLetsTheBurstGoThenSpacesTheRestOneTokenApart() {
        let start = ContinuousClock.now
        let bucket = TokenBucket(perSecond: 10, burst: 3, now: start)
        let waits = (0..<6).map { _ in bucket.reserve(now: start) }
        #expect(waits.prefix(3).allSatisfy { $0 == .zero }, "the burst goes at once: \(waits)")
        #expect(waits.dropFirst(3) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)],
                "then one every 100 ms, in the order asked: \(waits)")
    }

    @Test func tokensRefillWithTimeUpToTheBurst() {
        let start = ContinuousClock.now
        let bucket = TokenBucket(perSecond: 2, burst: 2, now: start)
        #expect(bucket.takeIfAvailable(now: start) && bucket.takeIfAvailable(now: start))
        #expect(!bucket.takeIfAvailable(now: start), "empty")
        #expect(!bucket.takeIfAvailable(now: start + .milliseconds(400)), "0.8 of a token is not one")
        #expect(bucket.takeIfAvailable(now: start + .milliseconds(500)), "one token after half a second at 2/s")
        let later = start + .seconds(60)
        #expect(bucket.takeIfAvailable(now: later) && bucket.takeIfAvailable(now: later))
        #expect(!bucket.takeIfAvailable(now: later), "a quiet minute refills the burst, not 120 tokens")
    }

    @Test func aReservationInDebtMakesTheNextCallerWaitLonger() {
        let start = ContinuousClock.now
        let bucket = TokenBucket(perSecond: 4, burst: 1, now: start)
        #expect(bucket.reserve(now: start) == .zero)
        #expect(bucket.reserve(now: start) == .milliseconds(250))
        #expect(!bucket.takeIfAvailable(now: start + .milliseconds(300)), "the token that came at 250 ms was reserved")
        #expect(bucket.reserve(now: start + .milliseconds(500)) == .zero, "the one of 500 ms is free")
        #expect(bucket.reserve(now: start + .milliseconds(500)) == .milliseconds(250))
    }
}

@Suite struct HandledEventsTests {
    @Test func anIDIsADuplicateWithinTheWindowAndForgottenAfter() {
        let handled = HandledEvents(window: .seconds(600))
        let at = Timestamp(seconds: 1_796_032_800)
        #expect(handled.handledAt("e-1", now: at) == nil)
        handled.record("e-1", at: at)
        #expect(handled.handledAt("e-1", now: at + .seconds(599)) == at)
        #expect(handled.handledAt("e-1", now: at + .seconds(600)) == nil, "the window is over")
        #expect(handled.handledAt("e-2", now: at + .seconds(1)) == nil)
        handled.record("e-2", at: at + .seconds(601))
        #expect(handled.count == 1, "recording forgets ids whose window ended")
    }

    @Test func pastItsCapacityTheOldestIDsAreForgottenFirst() {
        let handled = HandledEvents(window: .seconds(600), capacity: 3)
        let at = Timestamp(seconds: 1_796_032_800)
        for index in 0..<5 { handled.record("e-\(index)", at: at + .seconds(Int64(index))) }
        #expect(handled.count == 3)
        #expect(handled.handledAt("e-1", now: at + .seconds(10)) == nil)
        #expect(handled.handledAt("e-4", now: at + .seconds(10)) == at + .seconds(4))
    }

    @Test func anIDHandledAgainKeepsItsNewerTime() {
        let handled = HandledEvents(window: .seconds(10), capacity: 10)
        let at = Timestamp(seconds: 1_796_032_800)
        handled.record("e", at: at)
        handled.record("e", at: at + .seconds(8))
        handled.record("other", at: at + .seconds(11))
        #expect(handled.handledAt("e", now: at + .seconds(12)) == at + .seconds(8), "the first record's expiry does not forget the second")
    }
}
