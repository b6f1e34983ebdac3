import HeraldCore
import HeraldPipeline

/// What processing one event (or one page of a channel's devices) produced:
/// its outcomes, the targets to retry (grouped by delay tier) and those out
/// of attempts.
struct DeliveryWork: Sendable {
    let plan: EventPlan
    /// The delivery is a redelivery: every outcome says so.
    let redelivered: Bool
    /// Outcomes decided without a provider: the plan's, and channel targets that could not be expanded.
    private(set) var decided: [Outcome]
    var retries: [Duration: [Target]] = [:]
    var exhausted: [(target: Target, reason: String)] = []
    /// What each target that got an answer (delivered, refused, or scheduled
    /// for retry) produced: confirmed, a redelivery skips them; unconfirmed, it
    /// publishes them again (`DeliveredTargets`).
    var results: [TargetResult] = []
    /// The delivery records of traced targets (docs/debug-trace.md); empty unless the event asked for a trace.
    var traces: [DebugTraceRecord.Delivery] = []
    /// What the outcomes' context and providers' words may take together (``OutcomeBudget``).
    private(set) var budget: OutcomeBudget

    /// - Parameter budget: the bytes the outcomes' context and providers' words may take (`EventLimits.maxContextFanoutBytes`).
    init(plan: EventPlan, redelivered: Bool, budget: Int) {
        self.plan = plan
        self.redelivered = redelivered
        self.budget = OutcomeBudget(
            limit: budget, context: plan.event?.context,
            outcomes: plan.outcomes.count + plan.sends.count + plan.expansions.count)
        decided = []
        for outcome in plan.outcomes { add(decided: outcome) }
    }

    /// Every outcome, in order: those decided without a provider, then the
    /// targets' results. Read in place (it runs several times per event):
    /// no array of them is built.
    var outcomes: Outcomes { Outcomes(decided: decided.makeIterator(), results: results.makeIterator()) }

    struct Outcomes: Sequence, IteratorProtocol {
        var decided: IndexingIterator<[Outcome]>
        var results: IndexingIterator<[TargetResult]>

        mutating func next() -> Outcome? { decided.next() ?? results.next()?.outcome }
    }

    mutating func add(decided outcome: Outcome) {
        var outcome = outcome
        if redelivered { outcome.redelivered = true }
        budget.charge(&outcome)
        decided.append(outcome)
    }

    mutating func record(
        _ answer: ProviderAnswer, for send: EventPlan.Send, attempt: Int,
        policy: RetryPolicy, invalidationGuard: InvalidationGuard?, at now: Timestamp,
        trace: DeliveryTraceRecorder? = nil
    ) {
        var decision = RetryPolicy.Decision.exhausted
        var next = TargetResult.Next.none
        if case .failure(let failure) = answer {
            decision = policy.decision(afterFailedAttempt: attempt, retryAfter: failure.retryAfter)
            switch decision {
            case .retry(_, let delay): next = .retry(after: delay)
            case .exhausted: next = .exhausted(reason: failure.description)
            }
        }
        let outcome = OutcomeBuilder.outcome(
            for: answer, of: send, attempt: attempt, at: now, decision: decision, invalidationGuard: invalidationGuard)
        add(TargetResult(target: send.target, outcome: outcome, next: next))
        if let trace, let added = results.last {
            traces.append(DebugTraceRecord.Delivery(send: send, outcome: added.outcome, trace: trace.trace))
        }
    }

    /// Adds a target's result: decided now, or remembered from an earlier delivery whose publishing failed.
    mutating func add(_ result: TargetResult) {
        var result = result
        if redelivered { result.outcome.redelivered = true }
        budget.charge(&result.outcome)
        results.append(result)
        switch result.next {
        case .none: break
        case .retry(let delay): retries[delay, default: []].append(result.target)
        case .exhausted(let reason): exhausted.append((result.target, reason))
        }
    }
}
