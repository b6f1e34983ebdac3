@testable import HeraldAMQP
import Testing

@Suite("Publisher confirm bookkeeping (no sockets)")
struct ConfirmTrackerTests {
    typealias Tracker = ConfirmTracker<String>

    func key(_ body: String, routingKey: String = "k") -> Tracker.ReturnKey {
        .init(exchange: "x", routingKey: routingKey, body: Array(body.utf8))
    }

    @Test func sequenceNumbersStartAtOneAndMultipleAckSettlesEveryLowerTag() {
        var tracker = Tracker()
        let sequences = ["a", "b", "c", "d"].map { tracker.register($0, returnKey: nil) }
        #expect(sequences == [1, 2, 3, 4])
        let settled = tracker.settle(tag: 3, multiple: true, acked: true, operation: "publish")
        #expect(settled.map(\.0) == ["a", "b", "c"])
        #expect(settled.allSatisfy { $0.1 == nil })
        #expect(tracker.inFlight == 1)
        let belowLowestSettlesNothing = tracker.settle(tag: 2, multiple: true, acked: true, operation: "publish")
            .isEmpty
        #expect(belowLowestSettlesNothing)
    }

    @Test func singleAckOutOfOrderSettlesOnlyThatTag() {
        var tracker = Tracker()
        for name in ["a", "b", "c"] { _ = tracker.register(name, returnKey: nil) }
        let settledTwo = tracker.settle(tag: 2, multiple: false, acked: true, operation: "p").map(\.0)
        #expect(settledTwo == ["b"])
        let settledRest = tracker.settle(tag: 3, multiple: true, acked: true, operation: "p").map(\.0)
        #expect(settledRest == ["a", "c"])
    }

    @Test func nackFailsRetryablyWithTheBrokersMeaning() throws {
        var tracker = Tracker()
        _ = tracker.register("a", returnKey: nil)
        let settled = tracker.settle(tag: 1, multiple: false, acked: false, operation: "basic.publish")
        let error = try #require(settled.first?.1)
        #expect(error.code == .nacked)
        #expect(error.isRetryable)
        #expect(error.description.hasPrefix("basic.publish: nacked by broker: the broker could not take the message"))
    }

    @Test func returnedMandatoryPublishFailsAsUnroutableWhenItsAckArrives() throws {
        var tracker = Tracker()
        _ = tracker.register("routed", returnKey: key("one"))
        _ = tracker.register("returned", returnKey: key("two"))
        let returnMatched = tracker.markReturned(key("two"), replyCode: 312, replyText: "NO_ROUTE")
        #expect(returnMatched)
        let settled = tracker.settle(tag: 2, multiple: true, acked: true, operation: "basic.publish")
        #expect(settled.map(\.0) == ["routed", "returned"])
        #expect(settled[0].1 == nil)
        let error = try #require(settled[1].1)
        #expect(error.code == .unroutable)
        #expect(error.replyCode == 312)
        #expect(error.description == "basic.publish: unroutable 312: NO_ROUTE (not retryable)")
    }

    @Test func aReturnMatchesTheOldestIdenticalPendingPublishOnlyOnce() {
        var tracker = Tracker()
        _ = tracker.register("first", returnKey: key("same"))
        _ = tracker.register("second", returnKey: key("same"))
        let firstMatch = tracker.markReturned(key("same"), replyCode: 312, replyText: "NO_ROUTE")
        #expect(firstMatch)
        let secondMatch = tracker.markReturned(key("same"), replyCode: 312, replyText: "NO_ROUTE")
        #expect(secondMatch)
        let thirdMatch = tracker.markReturned(key("same"), replyCode: 312, replyText: "NO_ROUTE")
        #expect(!thirdMatch)
        let otherMatch = tracker.markReturned(key("other"), replyCode: 312, replyText: "NO_ROUTE")
        #expect(!otherMatch)
    }

    @Test func removeAllHandsBackEveryWaiterInOrderAndResetRestartsAtOne() {
        var tracker = Tracker()
        for name in ["a", "b", "c"] { _ = tracker.register(name, returnKey: nil) }
        let removed = tracker.removeAll()
        #expect(removed == ["a", "b", "c"])
        #expect(tracker.inFlight == 0)
        tracker.reset()
        let restarted = tracker.register("d", returnKey: nil)
        #expect(restarted == 1)
    }
}
