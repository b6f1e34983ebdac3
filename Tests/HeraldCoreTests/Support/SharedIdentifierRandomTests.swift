import HeraldCore
import Synchronization
import Testing

@Suite struct SharedIdentifierRandomTests {
    @Test func theSameSeedGivesTheSameSequenceAsSplitMix64() {
        let shared = SharedIdentifierRandom(seed: 99)
        var reference = SplitMix64(seed: 99)
        let first = shared.next()
        let (second, third) = shared.nextPair()
        #expect([first, second, third] == [reference.next(), reference.next(), reference.next()])
    }

    @Test func drawsFromConcurrentTasksAreAllDistinct() async {
        let shared = SharedIdentifierRandom()
        let values = await withTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<8 { group.addTask { (0..<1000).map { _ in shared.next() } } }
            var all: [UInt64] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(values.count == 8000)
        #expect(Set(values).count == 8000)
    }
}
