@testable import HeraldHTTP2Server
import Testing

@Suite struct TimerHeapTests {
    @Test func dueTimersComeOutInDeadlineOrderAndLaterOnesStay() {
        var heap = TimerHeap<String>()
        for (deadline, name) in [(50, "e"), (10, "a"), (30, "c"), (20, "b"), (40, "d"), (60, "f")] {
            heap.insert(deadline: UInt64(deadline), name)
        }
        #expect(heap.earliestDeadline == 10)
        #expect(heap.popDue(now: 45) == ["a", "b", "c", "d"])
        #expect(heap.earliestDeadline == 50, "timers after now stay queued")
        #expect(heap.popDue(now: 100) == ["e", "f"])
        #expect(heap.isEmpty)
    }

    @Test func equalDeadlinesKeepInsertionOrder() {
        var heap = TimerHeap<Int>()
        for value in 0..<20 { heap.insert(deadline: 7, value) }
        #expect(heap.popDue(now: 7) == Array(0..<20))
    }
}
