import HeraldCore

extension DeliveryReport {
    /// The outcome the pipeline would publish for `report` (a transient failure is `failed` here: nothing retries).
    func outcome(event: Event, target: Target, at now: Timestamp) -> Outcome {
        switch self {
        case .rejected(let rejection):
            var outcome = Outcome(.failed, event: event, target: target, at: now)
            outcome.reason = rejection.reason
            return outcome
        case .failure(let failure):
            var outcome = Outcome(.failed, event: event, target: target, at: now)
            outcome.reason = failure.reason
            outcome.providerStatus = failure.providerStatus
            outcome.latencyMs = failure.latency.map(Self.milliseconds)
            return outcome
        case .result(let result):
            var status = Outcome.Status.failed
            var invalidatedAt: Timestamp?
            switch result.status {
            case .delivered: status = .delivered
            case .invalidToken(let at): status = .invalidToken; invalidatedAt = at
            case .failed: status = .failed
            }
            var outcome = Outcome(status, event: event, target: target, at: now)
            outcome.reason = result.reason
            outcome.providerStatus = result.providerStatus
            outcome.invalidatedAt = invalidatedAt
            outcome.providerMessageID = result.providerMessageID
            outcome.latencyMs = result.latency.map(Self.milliseconds)
            return outcome
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
