import HeraldCore

/// Turns a provider's answer for one send into the outcome published for it.
public enum OutcomeBuilder {
    static func base(_ send: EventPlan.Send, attempt: Int, at: Timestamp, status: Outcome.Status) -> Outcome {
        var outcome = Outcome(status, event: send.event, target: send.target, attempt: attempt, at: at)
        outcome.app = send.app
        return outcome
    }

    static func milliseconds(_ d: Duration?) -> Double? {
        guard let d else { return nil }
        let (seconds, attoseconds) = d.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// A definitive answer: delivered, invalid_token or failed.
    public static func outcome(for result: DeliveryResult, of send: EventPlan.Send, attempt: Int, at: Timestamp) -> Outcome {
        var outcome: Outcome
        switch result.status {
        case .delivered:
            outcome = base(send, attempt: attempt, at: at, status: .delivered)
        case .invalidToken(let invalidatedAt):
            outcome = base(send, attempt: attempt, at: at, status: .invalidToken)
            outcome.invalidatedAt = invalidatedAt
        case .failed:
            outcome = base(send, attempt: attempt, at: at, status: .failed)
        }
        outcome.reason = result.reason
        outcome.providerStatus = result.providerStatus
        outcome.providerMessageID = result.providerMessageID
        outcome.latencyMs = milliseconds(result.latency)
        return outcome
    }

    /// A transient failure: `retrying` with the next attempt's time, or `failed` when no attempt is left.
    public static func outcome(for failure: DeliveryFailure, of send: EventPlan.Send, attempt: Int, at: Timestamp,
                               decision: RetryPolicy.Decision) -> Outcome {
        var outcome: Outcome
        switch decision {
        case .retry(_, let delay):
            outcome = base(send, attempt: attempt, at: at, status: .retrying)
            outcome.nextAttemptAt = at + delay
            outcome.reason = failure.reason
        case .exhausted:
            outcome = base(send, attempt: attempt, at: at, status: .failed)
            outcome.reason = "retries exhausted after \(attempt) attempts: \(failure.reason)"
        }
        outcome.providerStatus = failure.providerStatus
        outcome.latencyMs = milliseconds(failure.latency)
        return outcome
    }

    /// A send refused before contacting the provider (payload too large, collapse id too long, ...).
    public static func outcome(for rejection: DeliveryRejection, of send: EventPlan.Send, attempt: Int, at: Timestamp) -> Outcome {
        var outcome = base(send, attempt: attempt, at: at, status: .failed)
        outcome.reason = rejection.description
        return outcome
    }
}
