import HeraldCore
import HeraldPipeline
import Testing

@Suite struct OutcomeBuilderTests {
    let at = Timestamp(seconds: 1_796_032_800)

    func send() throws -> EventPlan.Send {
        let planner = EventPlanner(router: Router(rules: []), apps: ["chat": [.fcm]])
        let plan = planner.plan(IncomingEvent(body: Array(#"{"id": "e", "app": "chat", "provider": "fcm", "token": "t", "context": {"u": 1}}"#.utf8),
                                              routingKey: "k"), now: at, newID: { "g" })
        return try #require(plan.sends.first)
    }

    @Test func invalidTokenCarriesTimestampStatusAndLatency() throws {
        let result = DeliveryResult(.invalidToken(invalidatedAt: Timestamp(millisecondsSinceEpoch: 1_796_032_000_123)),
                                    reason: "UNREGISTERED", providerStatus: 404, latency: .milliseconds(12))
        let o = OutcomeBuilder.outcome(for: result, of: try send(), attempt: 2, at: at)
        #expect(o.status == .invalidToken)
        #expect(o.routingKey == "invalid_token.fcm.chat")
        #expect(o.reason == "UNREGISTERED")
        #expect(o.providerStatus == 404)
        #expect(o.invalidatedAt == Timestamp(millisecondsSinceEpoch: 1_796_032_000_123))
        #expect(o.attempt == 2)
        #expect(o.latencyMs == 12)
        #expect(o.context == ["u": 1])
    }

    @Test func transientFailureBecomesRetryingOrFailed() throws {
        let failure = DeliveryFailure(reason: "UNAVAILABLE", providerStatus: 503)
        let retrying = OutcomeBuilder.outcome(for: failure, of: try send(), attempt: 1, at: at,
                                              decision: .retry(attempt: 2, delay: .seconds(30)))
        #expect(retrying.status == .retrying)
        #expect(retrying.nextAttemptAt == at + .seconds(30))
        let failed = OutcomeBuilder.outcome(for: failure, of: try send(), attempt: 5, at: at, decision: .exhausted)
        #expect(failed.status == .failed)
        #expect(failed.reason == "retries exhausted after 5 attempts: UNAVAILABLE")
    }

    @Test func rejectionBeforeSendingFails() throws {
        let o = OutcomeBuilder.outcome(for: DeliveryRejection(reason: "PayloadTooLarge", message: "payload is 4200 bytes, over 4096"),
                                       of: try send(), attempt: 1, at: at)
        #expect(o.status == .failed)
        #expect(o.reason == "PayloadTooLarge: payload is 4200 bytes, over 4096")
    }

    @Test func deliveredTargetsAreRememberedWithinCapacity() {
        let memory = DeliveredTargets(capacity: 3)
        let t = { (i: Int) in Target(provider: .fcm, address: .token("t\(i)")) }
        for i in 0..<10 { memory.remember(eventID: "e", target: t(i)) }
        #expect(memory.count == 3)
        #expect(memory.contains(eventID: "e", target: t(9)))
        #expect(!memory.contains(eventID: "e", target: t(6)))
        #expect(!memory.contains(eventID: "other", target: t(9)))
        memory.remember(eventID: "e", target: t(9))
        #expect(memory.count == 3)
    }
}
