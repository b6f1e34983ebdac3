import HeraldSystem
import Testing

/// `MonotonicClock`'s arithmetic at its edges: it saturates, never traps.
@Suite struct MonotonicClockTests {
    @Test func durationsBecomeNanosecondsAndSaturateAtTheEdges() {
        #expect(MonotonicClock.nanoseconds(.zero) == 0)
        #expect(MonotonicClock.nanoseconds(.milliseconds(1500)) == 1_500_000_000)
        #expect(MonotonicClock.nanoseconds(.nanoseconds(7)) == 7)
        #expect(MonotonicClock.nanoseconds(.seconds(-1)) == 0, "a negative duration counts as none")
        #expect(MonotonicClock.nanoseconds(.milliseconds(-500)) == 0, "a negative fraction of a second too")
        #expect(MonotonicClock.nanoseconds(.seconds(Int64.max)) == UInt64.max, "too long to count: never")
        #expect(MonotonicClock.nanoseconds(.seconds(18_446_744_073)) == 18_446_744_073_000_000_000)
        #expect(
            MonotonicClock.nanoseconds(.seconds(18_446_744_073) + .milliseconds(800)) == UInt64.max,
            "the fraction that carries past UInt64.max saturates")
    }

    @Test func sumsAndDifferencesSaturate() {
        #expect(MonotonicClock.later(10, by: 5) == 15)
        #expect(MonotonicClock.later(UInt64.max - 1, by: 5) == UInt64.max)
        #expect(MonotonicClock.later(UInt64.max, by: UInt64.max) == UInt64.max)
        #expect(MonotonicClock.elapsed(from: 10, to: 25) == 15)
        #expect(MonotonicClock.elapsed(from: 25, to: 10) == 0, "a time before the start is no time")
        #expect(MonotonicClock.deadline(after: .seconds(Int64.max), from: 123) == UInt64.max)
        #expect(MonotonicClock.deadline(after: .seconds(-5), from: 123) == 123)
        #expect(MonotonicClock.deadline(after: .seconds(2), from: 1) == 2_000_000_001)
    }

    @Test func nowNeverGoesBackAndSecondsReadForPeople() {
        let first = MonotonicClock.now()
        let second = MonotonicClock.now()
        #expect(second >= first)
        #expect(MonotonicClock.seconds(3_149_999_999) == "3.1 s")
        #expect(MonotonicClock.seconds(0) == "0.0 s")
    }
}
