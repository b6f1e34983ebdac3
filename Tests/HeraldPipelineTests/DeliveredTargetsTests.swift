import HeraldCore
import HeraldPipeline
import Testing

@Suite struct DeliveredTargetsTests {
    let at = Timestamp(seconds: 1_800_000_000)
    func target(_ i: Int) -> Target { Target(provider: .fcm, address: .token("t\(i)")) }
    func result(_ i: Int, next: TargetResult.Next = .none) -> TargetResult {
        TargetResult(
            target: target(i),
            outcome: Outcome(
                status: .delivered, eventID: "e", app: "chat", provider: .fcm,
                address: .token("t\(i)"), at: at),
            next: next)
    }

    @Test func confirmedTargetsAreRememberedWithinCapacityOldestForgottenFirst() {
        let memory = DeliveredTargets(capacity: 3)
        memory.confirm(eventID: "e", attempt: 1, targets: (0..<10).map(target))
        #expect(memory.count == 3)
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(9)) == .confirmed)
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(6)) == .unknown)
        #expect(memory.memory(eventID: "other", attempt: 1, target: target(9)) == .unknown)
        memory.confirm(eventID: "e", attempt: 1, targets: [target(9)])
        #expect(memory.count == 3)
    }

    @Test func eachAttemptIsRememberedOnItsOwn() {
        // Attempt 1 confirmed says nothing about the retry (attempt 2) of the same target.
        let memory = DeliveredTargets()
        memory.confirm(eventID: "e", attempt: 1, targets: [target(1)])
        #expect(memory.memory(eventID: "e", attempt: 2, target: target(1)) == .unknown)
    }

    @Test func anUnconfirmedResultIsKeptUntilConfirmedAndNeverReplacesAConfirmation() {
        let memory = DeliveredTargets()
        let retry = result(1, next: .retry(after: .seconds(5)))
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: [retry, result(2)])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(1)) == .unconfirmed(retry))
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(2)) == .unconfirmed(result(2)))

        memory.confirm(eventID: "e", attempt: 1, targets: [target(1)])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(1)) == .confirmed)
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: [retry])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(1)) == .confirmed)
        #expect(memory.count == 2)
    }

    @Test func unconfirmedResultsPastTheirCapacityAreNotKept() {
        let memory = DeliveredTargets(capacity: 100, unconfirmedCapacity: 2)
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: (0..<4).map { result($0) })
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(1)) == .unconfirmed(result(1)))
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(2)) == .unknown)
        // Confirming one frees its place for another.
        memory.confirm(eventID: "e", attempt: 1, targets: [target(0)])
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: [result(3)])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(3)) == .unconfirmed(result(3)))
    }

    @Test func forgettingAnUnconfirmedResultFreesItsPlace() {
        let memory = DeliveredTargets(capacity: 2, unconfirmedCapacity: 1)
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: [result(0)])
        memory.confirm(eventID: "e", attempt: 1, targets: [target(1), target(2)])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(0)) == .unknown)
        memory.keepUnconfirmed(eventID: "e", attempt: 1, results: [result(3)])
        #expect(memory.memory(eventID: "e", attempt: 1, target: target(3)) == .unconfirmed(result(3)))
    }
}
