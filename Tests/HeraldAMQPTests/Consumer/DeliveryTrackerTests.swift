@testable import HeraldAMQP
import Testing

@Suite("Unsettled delivery bookkeeping (no sockets)")
struct DeliveryTrackerTests {
    @Test func secondSettlementOfATagIsRefused() {
        var tracker = DeliveryTracker()
        tracker.delivered(1)
        let firstSettle = tracker.settle(1, multiple: false)
        #expect(firstSettle)
        let secondSettle = tracker.settle(1, multiple: false)
        #expect(!secondSettle)
    }

    @Test func multipleSettlesEveryLowerTagAndKeepsHigherOnes() {
        var tracker = DeliveryTracker()
        for tag in UInt64(1)...5 { tracker.delivered(tag) }
        let settledUpToThree = tracker.settle(3, multiple: true)
        #expect(settledUpToThree)
        #expect(tracker.count == 2)
        let settledTwoAgain = tracker.settle(2, multiple: false)
        #expect(!settledTwoAgain)
        let settledFive = tracker.settle(5, multiple: false)
        #expect(settledFive)
        let settledFour = tracker.settle(4, multiple: false)
        #expect(settledFour)
    }

    @Test func theLowestOutstandingTagIsTheOldestUnsettledDelivery() {
        var tracker = DeliveryTracker()
        #expect(tracker.lowestOutstanding == nil)
        for tag in UInt64(1)...4 { tracker.delivered(tag) }
        _ = tracker.settle(1, multiple: false)
        _ = tracker.settle(3, multiple: false)
        #expect(tracker.lowestOutstanding == 2)
        _ = tracker.settle(2, multiple: false)
        #expect(tracker.lowestOutstanding == 4)
    }
}
