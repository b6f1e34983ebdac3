import HeraldCore
import HeraldSystem
import Testing

/// When a paced loop naps (and for how long) and when it sleeps until woken.
@Suite struct LoopPacingTests {
    private let start = ContinuousClock.now

    @Test func withoutAWindowTheLoopAlwaysSleepsUntilWoken() {
        var pacing = LoopPacing(window: .zero)
        pacing.passBegins(at: start)
        #expect(pacing.nap(foundWork: true, limit: .seconds(1), now: start) == nil)
    }

    @Test func aBusyLoopNapsUntilTheWindowAfterItsPassBegan() {
        var pacing = LoopPacing(window: .milliseconds(2))
        pacing.passBegins(at: start)
        #expect(pacing.nap(foundWork: true, limit: .seconds(1), now: start + .microseconds(300)) == .microseconds(1700))
        pacing.passBegins(at: start + .milliseconds(2))
        #expect(
            pacing.nap(foundWork: true, limit: .seconds(1), now: start + .milliseconds(5)) == .zero,
            "a pass longer than the window is followed at once by the next")
        pacing.passBegins(at: start + .milliseconds(5))
        #expect(
            pacing.nap(foundWork: true, limit: .microseconds(500), now: start + .milliseconds(5)) == .microseconds(500),
            "the loop's own timers cap the nap")
    }

    @Test func anIdleLoopSleepsUntilWokenAndTheFirstWorkPacesItAgain() {
        var pacing = LoopPacing(window: .milliseconds(1), idlePasses: 3)
        pacing.passBegins(at: start)
        #expect(pacing.nap(foundWork: false, limit: .seconds(1), now: start) == nil, "a new loop starts asleep")
        #expect(pacing.nap(foundWork: true, limit: .seconds(1), now: start) == .milliseconds(1))
        #expect(pacing.nap(foundWork: false, limit: .seconds(1), now: start) != nil)
        #expect(pacing.nap(foundWork: false, limit: .seconds(1), now: start) != nil)
        #expect(
            pacing.nap(foundWork: false, limit: .seconds(1), now: start) == nil, "three empty passes: sleep until woken"
        )
        #expect(pacing.nap(foundWork: false, limit: .seconds(1), now: start) == nil)
        #expect(pacing.nap(foundWork: true, limit: .seconds(1), now: start) == .milliseconds(1))
    }

    @Test func aNapSleepsAboutAsLongAsAsked() {
        let before = ContinuousClock.now
        LoopPacing.sleep(.milliseconds(3))
        #expect(ContinuousClock.now - before >= .milliseconds(3))
        LoopPacing.sleep(.zero)
    }
}
