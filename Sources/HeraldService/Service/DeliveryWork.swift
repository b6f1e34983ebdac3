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

    mutating func record(_ answer: EventProcessor.SendAnswer, for send: EventPlan.Send, attempt: Int,
                         policy: RetryPolicy, at now: Timestamp) {
        handledTargets.append(send.target)
        switch answer {
        case .unavailable(let reason):
            var outcome = Outcome(.failed, event: send.event, target: send.target, attempt: attempt, at: now)
            outcome.app = send.app
            outcome.reason = reason
            outcomes.append(outcome)
        case .rejected(let rejection):
            outcomes.append(OutcomeBuilder.outcome(for: rejection, of: send, attempt: attempt, at: now))
        case .result(let result):
            outcomes.append(OutcomeBuilder.outcome(for: result, of: send, attempt: attempt, at: now))
        case .failure(let failure):
            let decision = policy.decision(afterFailedAttempt: attempt, retryAfter: failure.retryAfter)
            outcomes.append(OutcomeBuilder.outcome(for: failure, of: send, attempt: attempt, at: now, decision: decision))
            switch decision {
            case .retry(_, let delay): retries[delay, default: []].append(send.target)
            case .exhausted: exhausted.append((send.target, failure.description))
            }
        }
    }
}
