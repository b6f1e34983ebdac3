import HeraldCore

/// Turns a provider's answer for one send into the outcome published for it:
/// the one mapping from answers to outcomes, for `herald run` and `herald send`.
public enum OutcomeBuilder {
    /// The outcome for `answer`.
    /// - Parameters:
    ///   - decision: for a transient failure, what the retry policy decided
    ///     (`retrying` with the next attempt's time, or `failed` when exhausted).
    ///   - invalidationGuard: judges every definitive answer, and may turn a
    ///     suspect `invalid_token` into `failed` (see ``InvalidationGuard``).
    public static func outcome(
        for answer: ProviderAnswer, of send: EventPlan.Send, attempt: Int, at now: Timestamp,
        decision: RetryPolicy.Decision = .exhausted, invalidationGuard: InvalidationGuard? = nil
    ) -> Outcome {
        switch answer {
        case .unavailable(let reason):
            var outcome = base(send, attempt: attempt, at: now, status: .failed)
            outcome.reason = reason
            return outcome
        case .rejected(let rejection):
            var outcome = base(send, attempt: attempt, at: now, status: .failed)
            outcome.reason = rejection.description
            return outcome
        case .result(let result):
            return outcome(for: result, of: send, attempt: attempt, at: now, invalidationGuard: invalidationGuard)
        case .failure(let failure):
            return outcome(for: failure, of: send, attempt: attempt, at: now, decision: decision)
        case .dropped(let reason):
            var outcome = base(send, attempt: attempt, at: now, status: .dropped)
            outcome.reason = reason
            return outcome
        }
    }

    /// The terminal outcome of a target the event could not address
    /// (`invalid_token` for a malformed token, `failed` otherwise); nothing was sent.
    public static func outcome(for invalid: InvalidTarget, event: Event, app: String?, attempt: Int, at now: Timestamp)
        -> Outcome
    {
        var outcome = Outcome(
            status: invalid.status, eventID: event.id, app: app, provider: invalid.provider, address: invalid.address,
            reason: invalid.reason, detail: invalid.detail, attempt: attempt, at: now,
            context: event.context.map { .object($0) })
        outcome.channel = invalid.channel
        return outcome
    }

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
    static func outcome(
        for result: DeliveryResult, of send: EventPlan.Send, attempt: Int, at: Timestamp,
        invalidationGuard: InvalidationGuard?
    ) -> Outcome {
        var outcome: Outcome
        var heldBack: (suspect: Int, answers: Int)?
        if let invalidationGuard {
            let suspect: Bool
            if case .invalidToken = result.status { suspect = result.couldBeMisconfiguration } else { suspect = false }
            let key = InvalidationGuard.Key(app: send.app, provider: send.target.provider)
            if case .holdBack(let count, let answers) = invalidationGuard.judge(key, suspect: suspect, at: at) {
                heldBack = (count, answers)
            }
        }
        outcome = base(send, attempt: attempt, at: at, status: heldBack == nil ? status(of: result) : .failed)
        if heldBack == nil, case .invalidToken(let invalidatedAt) = result.status {
            outcome.invalidatedAt = invalidatedAt
        }
        outcome.reason = result.reason
        outcome.detail = result.detail
        if let heldBack, let guardPolicy = invalidationGuard?.policy {
            outcome.reason = heldReason(result.reason)
            outcome.detail =
                "\(heldBack.suspect) of the last \(heldBack.answers) \(send.target.provider) answers for app "
                + "'\(send.app)' within \(spelled(guardPolicy.window)) refused the token this way (invalidation guard)"
                + (result.detail.map { "; provider: \($0)" } ?? "")
        }
        outcome.providerStatus = result.providerStatus
        outcome.providerMessageID = result.providerMessageID
        outcome.latencyMs = milliseconds(result.latency)
        return outcome
    }

    /// The outcome status of a definitive answer, before the invalidation guard.
    public static func status(of result: DeliveryResult) -> Outcome.Status {
        switch result.status {
        case .delivered: .delivered
        case .invalidToken: .invalidToken
        case .failed: .failed
        }
    }

    /// `60s`, `1500ms`: a window as config spells it.
    static func spelled(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// The reason of an `invalid_token` the guard held back: the provider's
    /// reason first, so consumers matching on it still can.
    static func heldReason(_ reason: String?) -> String {
        "\(reason ?? "invalid token"): not invalidated, a credential or environment mismatch is suspected"
    }

    /// A transient failure: `retrying` with the next attempt's time, or `failed` when no attempt is left.
    static func outcome(
        for failure: DeliveryFailure, of send: EventPlan.Send, attempt: Int, at: Timestamp,
        decision: RetryPolicy.Decision
    ) -> Outcome {
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
        outcome.detail = failure.detail
        outcome.providerStatus = failure.providerStatus
        outcome.latencyMs = milliseconds(failure.latency)
        outcome.uncertain = failure.answerLost
        return outcome
    }
}
