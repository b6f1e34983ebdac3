import HeraldCore
import HeraldPipeline

/// What processing one event produced: its outcomes, the targets to retry
/// (grouped by delay tier) and those out of attempts.
struct DeliveryWork: Sendable {
    let plan: EventPlan
    var outcomes: [Outcome]
    var retries: [Duration: [Target]] = [:]
    var exhausted: [(target: Target, reason: String)] = []
    /// Targets that got an answer (delivered, refused, or scheduled for retry): once the
    /// outcomes are confirmed, a redelivery of this event must not send them again.
    var handledTargets: [Target] = []

    init(plan: EventPlan) {
        self.plan = plan
        outcomes = plan.outcomes
    }

    mutating func record(_ answer: ProviderAnswer, for send: EventPlan.Send, attempt: Int,
                         policy: RetryPolicy, invalidationGuard: InvalidationGuard?, at now: Timestamp) {
        handledTargets.append(send.target)
        var decision = RetryPolicy.Decision.exhausted
        if case .failure(let failure) = answer {
            decision = policy.decision(afterFailedAttempt: attempt, retryAfter: failure.retryAfter)
            switch decision {
            case .retry(_, let delay): retries[delay, default: []].append(send.target)
            case .exhausted: exhausted.append((send.target, failure.description))
            }
        }
        outcomes.append(OutcomeBuilder.outcome(
            for: answer, of: send, attempt: attempt, at: now, decision: decision, invalidationGuard: invalidationGuard))
    }
}
