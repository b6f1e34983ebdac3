@testable import HeraldService
import HeraldTestSupport
import Synchronization
import Testing

@Suite struct EventSlotsTests {
    @Test func aTakerBeyondTheLimitWaitsForARelease() async throws {
        let slots = EventSlots(limit: 2)
        await slots.acquire()
        await slots.acquire()
        let third = Atomic<Bool>(false)
        let waiter = Task {
            await slots.acquire()
            third.store(true, ordering: .sequentiallyConsistent)
        }
        // Parked in `acquire`, the waiter has not taken a slot; no time passing could prove that.
        #expect(await eventually { slots.parked.taker }, "the third taker waits")
        let tookEarly = third.load(ordering: .sequentiallyConsistent)
        #expect(!tookEarly, "both slots are taken")
        slots.release()
        await waiter.value
        let took = third.load(ordering: .sequentiallyConsistent)
        #expect(took)
        // Two taken again (the released one passed to the waiter): one more release frees one slot.
        slots.release()
        await slots.acquire()
    }

    @Test func aLimitBelowOneIsOne() async {
        let slots = EventSlots(limit: 0)
        #expect(slots.limit == 1)
        await slots.acquire()
        slots.release()
        await slots.acquire()
    }

    @Test func waitingUntilAllFreeReturnsOnlyWhenTheLastSlotComesBack() async throws {
        let slots = EventSlots(limit: 3)
        await slots.waitUntilAllFree()  // nothing taken: returns at once
        await slots.acquire()
        await slots.acquire()
        let idle = Atomic<Bool>(false)
        let waiter = Task {
            await slots.waitUntilAllFree()
            idle.store(true, ordering: .sequentiallyConsistent)
        }
        slots.release()
        #expect(await eventually { slots.parked.idle }, "the idle waiter waits")
        let idleEarly = idle.load(ordering: .sequentiallyConsistent)
        #expect(!idleEarly, "one event is still in progress")
        slots.release()
        await waiter.value
        let idleAtEnd = idle.load(ordering: .sequentiallyConsistent)
        #expect(idleAtEnd)
    }
}
