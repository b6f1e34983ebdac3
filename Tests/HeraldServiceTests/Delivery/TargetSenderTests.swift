import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldProviderKit
@testable import HeraldService
import HeraldSystem
import Testing

/// A provider in test code whose first `lostAnswers` sends lose their answer
/// (the request was written, no answer came); every later send is delivered.
final class LosingProvider: PushProvider {
    let provider = Provider.fcm
    let lostAnswers: Int
    let sends = Locked<[Int]>([])

    init(lostAnswers: Int) { self.lostAnswers = lostAnswers }

    func prepare(_ event: Event, for target: Target) throws(DeliveryRejection) -> PreparedNotification<String> {
        PreparedNotification(event: event, target: target, request: "request for \(target.address.value)")
    }

    func send(_ notification: PreparedNotification<String>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
    {
        let count = sends.withLock { sends in
            sends.append(attempt)
            return sends.count
        }
        guard count > lostAnswers else {
            throw DeliveryFailure.noAnswer(timedOut: true, transport: "no answer", latency: .milliseconds(5))
        }
        return DeliveryResult(.delivered, providerStatus: 200, latency: .milliseconds(5))
    }
}

@Suite struct TargetSenderTests {
    let metrics = HeraldMetrics(version: "test")

    func sender(_ provider: LosingProvider, timeoutRetries: Int) -> TargetSender {
        let providers = ProviderSet(
            providers: [ProviderSet.Key(app: "chat", provider: .fcm): AppProvider(provider)],
            clients: [], unavailable: [:], timeoutRetries: ["chat": timeoutRetries])
        return TargetSender(
            providers: providers, traffic: nil,
            retryPolicy: RetryPolicy(maxAttempts: 3, delays: [.seconds(5)]), invalidationGuard: nil,
            series: PipelineSeries(metrics: metrics, apps: ["chat"]), metrics: metrics,
            clock: { DeliveryFixture.now })
    }

    func send() throws -> EventPlan.Send {
        let plan = DeliveryFixture.plan(
            DeliveryFixture.delivery(#"{"id": "t1", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}]}"#))
        return try #require(plan.sends.first)
    }

    @Test func aLostAnswerIsSentAgainAsItWasBeforeTheRetryPolicyTakesOver() async throws {
        let provider = LosingProvider(lostAnswers: 1)
        let answer = await sender(provider, timeoutRetries: 1).answer(try send(), attempt: 1, trace: nil)
        #expect(answer == .result(DeliveryResult(.delivered, providerStatus: 200, latency: .milliseconds(5))))
        // Sent twice as attempt 1: the resend is the same request, not a retry.
        #expect(provider.sends.withLock { $0 } == [1, 1])
        #expect(metrics.timeoutRetries.labels("fcm", "chat").current == 1)
    }

    @Test func aLostAnswerWithNoResendLeftIsAFailureForTheRetryPolicy() async throws {
        let provider = LosingProvider(lostAnswers: 2)
        let answer = await sender(provider, timeoutRetries: 1).answer(try send(), attempt: 1, trace: nil)
        guard case .failure(let failure) = answer else {
            Issue.record("expected a failure, got \(answer)")
            return
        }
        #expect(failure.answerLost)
        #expect(provider.sends.withLock { $0 } == [1, 1])
        #expect(metrics.timeoutRetries.labels("fcm", "chat").current == 1)
    }

    @Test func eachTargetsAnswerIsRecordedInTheWork() async throws {
        let provider = LosingProvider(lostAnswers: 1)
        let plan = DeliveryFixture.plan(DeliveryFixture.delivery(DeliveryFixture.twoTargets("t2")))
        var work = DeliveryFixture.work(plan)
        await sender(provider, timeoutRetries: 1).deliver(plan.sends, into: &work)
        #expect(Set(work.results.map(\.target.address.value)) == ["a", "b"])
        #expect(work.results.allSatisfy { $0.outcome.status == .delivered })
        #expect(provider.sends.withLock { $0 }.count == 3)
    }
}
