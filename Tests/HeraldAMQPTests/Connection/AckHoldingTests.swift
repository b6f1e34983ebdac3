@testable import HeraldAMQP
import Testing

/// When held single acks go out (the connection thread asks at the end of every turn).
@Suite struct AckHoldingTests {
    let taken = ContinuousClock.now
    let holding = AckHolding(delay: .milliseconds(5), maxHeld: 4)

    func mustSend(held: Int = 1, after elapsed: Duration, callerWaiting: Bool = false, shuttingDown: Bool = false)
        -> Bool
    {
        holding.mustSend(
            held: held, oldest: taken, now: taken + elapsed, callerWaiting: callerWaiting, shuttingDown: shuttingDown)
    }

    @Test func acksWaitUntilTheOldestHasWaitedTheDelay() {
        #expect(!mustSend(after: .zero))
        #expect(!mustSend(held: 3, after: .milliseconds(4)))
        #expect(mustSend(after: .milliseconds(5)))
        #expect(holding.deadline(oldest: taken) == taken + .milliseconds(5))
    }

    @Test func aFullBatchAWaitingCallerOrAShutdownSendsThemAtOnce() {
        #expect(mustSend(held: 4, after: .zero))
        #expect(mustSend(after: .zero, callerWaiting: true))
        #expect(mustSend(after: .zero, shuttingDown: true))
    }

    @Test func nothingHeldSendsNothingAndNoDelaySendsEveryTurn() {
        #expect(!holding.mustSend(held: 0, oldest: nil, now: taken, callerWaiting: false, shuttingDown: false))
        #expect(holding.deadline(oldest: nil) == nil)
        let eager = AckHolding(delay: .zero)
        #expect(eager.mustSend(held: 1, oldest: taken, now: taken, callerWaiting: false, shuttingDown: false))
        // Held acks without a known age go out rather than wait forever.
        #expect(holding.mustSend(held: 1, oldest: nil, now: taken, callerWaiting: false, shuttingDown: false))
    }
}
