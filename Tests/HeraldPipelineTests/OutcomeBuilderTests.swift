import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import HeraldSystem
import Testing

@Suite struct OutcomeBuilderTests {
    let at = Timestamp(seconds: 1_796_032_800)

    func send() throws -> EventPlan.Send {
        let planner = EventPlanner(router: Router(rules: []), apps: ["chat": [.fcm]], providers: .standIns)
        let plan = planner.plan(
            IncomingEvent(
                body: Array(#"{"id": "e", "app": "chat", "provider": "fcm", "token": "t", "context": {"u": 1}}"#.utf8),
                routingKey: "k"), now: at, newID: { "g" })
        return try #require(plan.sends.first)
    }

    @Test func invalidTokenCarriesTimestampStatusAndLatency() throws {
        let result = DeliveryResult(
            .invalidToken(invalidatedAt: Timestamp(millisecondsSinceEpoch: 1_796_032_000_123)),
            reason: "UNREGISTERED", providerStatus: 404, latency: .milliseconds(12))
        let o = OutcomeBuilder.outcome(for: .result(result), of: try send(), attempt: 2, at: at)
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
        let retrying = OutcomeBuilder.outcome(
            for: .failure(failure), of: try send(), attempt: 1, at: at,
            decision: .retry(attempt: 2, delay: .seconds(30)))
        #expect(retrying.status == .retrying)
        #expect(retrying.nextAttemptAt == at + .seconds(30))
        let failed = OutcomeBuilder.outcome(
            for: .failure(failure), of: try send(), attempt: 5, at: at, decision: .exhausted)
        #expect(failed.status == .failed)
        #expect(failed.reason == "retries exhausted after 5 attempts: UNAVAILABLE")
    }

    @Test func rejectionBeforeSendingFails() throws {
        let o = OutcomeBuilder.outcome(
            for: .rejected(DeliveryRejection(reason: "PayloadTooLarge", message: "payload is 4200 bytes, over 4096")),
            of: try send(), attempt: 1, at: at)
        #expect(o.status == .failed)
        #expect(o.reason == "PayloadTooLarge: payload is 4200 bytes, over 4096")
    }

    @Test func aProviderDetailIsBoundedAndHasNoControlCharacters() {
        let long = String(repeating: "é", count: 600) + "\u{1B}[31m"
        let bounded = DeliveryDetail.bounded(long)
        #expect(bounded.map { $0.utf8.count <= DeliveryDetail.maxBytes } == true)
        #expect(bounded?.hasSuffix("…") == true)
        #expect(DeliveryDetail.bounded("a\u{0}b\nc") == "a b c")
        #expect(DeliveryDetail.bounded(" \n ") == nil)
    }

    /// 40 BadDeviceToken answers in a row (a production app sent sandbox
    /// tokens): 9 are reported, then the guard holds the rest back.
    @Test func theInvalidationGuardHoldsBackAMassOfSuspectAnswers() throws {
        let reports = ReportLog()
        let guardian = InvalidationGuard(policy: .default) { reports.append($0) }
        let send = try send()
        let bad = DeliveryResult(
            .invalidToken(invalidatedAt: nil), reason: "BadDeviceToken", providerStatus: 400,
            couldBeMisconfiguration: true)
        var statuses: [Outcome.Status] = []
        var last: Outcome?
        for i in 0..<40 {
            let o = OutcomeBuilder.outcome(
                for: .result(bad), of: send, attempt: 1, at: at + .milliseconds(i * 10),
                invalidationGuard: guardian)
            statuses.append(o.status)
            last = o
        }
        #expect(statuses.filter { $0 == .invalidToken }.count == 9)
        #expect(statuses.dropFirst(9).allSatisfy { $0 == .failed })
        let held = try #require(last)
        #expect(held.reason == "BadDeviceToken: not invalidated, a credential or environment mismatch is suspected")
        #expect(
            held.detail
                == "40 of the last 40 fcm answers for app 'chat' within 60s refused the token this way (invalidation guard)"
        )
        #expect(held.invalidatedAt == nil)
        let key = InvalidationGuard.Key(app: "chat", provider: .fcm)
        #expect(reports.all.first == .tripped(key, suspect: 10, answers: 10))
        #expect(reports.all.filter { $0 == .heldBack(key) }.count == 31)
        #expect(guardian.isTripped(key))

        // An answer only a dead token gets is never held back.
        let gone = DeliveryResult(.invalidToken(invalidatedAt: nil), reason: "UNREGISTERED", providerStatus: 404)
        #expect(
            OutcomeBuilder.outcome(
                for: .result(gone), of: send, attempt: 1, at: at + .seconds(1),
                invalidationGuard: guardian
            ).status == .invalidToken)

        // Once the window has passed, a healthy stream is classified as given again.
        let later = at + .seconds(120)
        let delivered = DeliveryResult(.delivered, providerStatus: 200)
        for i in 0..<20 {
            _ = OutcomeBuilder.outcome(
                for: .result(delivered), of: send, attempt: 1, at: later + .milliseconds(i),
                invalidationGuard: guardian)
        }
        let one = OutcomeBuilder.outcome(
            for: .result(bad), of: send, attempt: 1, at: later + .milliseconds(50),
            invalidationGuard: guardian)
        #expect(one.status == .invalidToken)
        #expect(one.reason == "BadDeviceToken")
        #expect(reports.all.contains(.cleared(key)))
        #expect(!guardian.isTripped(key))
    }

    @Test func theGuardCountsAppsSeparatelyAndCanBeTurnedOff() throws {
        let bad = DeliveryResult(
            .invalidToken(invalidatedAt: nil), reason: "BadDeviceToken", couldBeMisconfiguration: true)
        let off = InvalidationGuard(policy: .init(enabled: false, minAnswers: 10, share: 0.5, window: .seconds(60)))
        let send = try send()
        for _ in 0..<30 {
            #expect(
                OutcomeBuilder.outcome(for: .result(bad), of: send, attempt: 1, at: at, invalidationGuard: off).status
                    == .invalidToken)
        }
        let guardian = InvalidationGuard()
        var other = send
        other.app = "news"
        for _ in 0..<15 {
            _ = OutcomeBuilder.outcome(for: .result(bad), of: send, attempt: 1, at: at, invalidationGuard: guardian)
        }
        #expect(guardian.isTripped(.init(app: "chat", provider: .fcm)))
        #expect(
            OutcomeBuilder.outcome(for: .result(bad), of: other, attempt: 1, at: at, invalidationGuard: guardian).status
                == .invalidToken)
    }
}

/// Reports of an `InvalidationGuard`, collected for assertions.
final class ReportLog: Sendable {
    private let reports = Locked<[InvalidationGuard.Report]>([])
    func append(_ report: InvalidationGuard.Report) { reports.withLock { $0.append(report) } }
    var all: [InvalidationGuard.Report] { reports.withLock { $0 } }
}
