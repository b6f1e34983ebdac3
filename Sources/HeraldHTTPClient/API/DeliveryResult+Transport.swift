import HeraldCore

extension DeliveryResult {
    /// What a provider reports for a request that got no answer: a lost
    /// answer (the provider may have it) and what a new connection may fix
    /// are retried; what it cannot (our TLS material, an oversized answer) fails.
    public static func unanswered(_ error: any Error, latency: Duration) throws(DeliveryFailure) -> DeliveryResult {
        guard let error = error as? HTTPClientError else {
            throw DeliveryFailure(reason: "transport: \(error)", latency: latency)
        }
        if error.kind == .egressRefused { return .refused(EgressRefusal(rule: error.message), latency: latency) }
        let reason = "transport \(error.kind.rawValue): \(error.message)"
        if error.answerLost { throw .noAnswer(timedOut: error.kind == .timeout, transport: reason, latency: latency) }
        if error.isRetryable || error.kind == .cancelled {
            throw DeliveryFailure(reason: reason, latency: latency)
        }
        return DeliveryResult(.failed, reason: reason, latency: latency)
    }

    /// A destination the egress rules refused (before the request, or at
    /// connect time): the target's `failed` outcome with the one reason for
    /// it and the rule as its detail. Nothing was sent.
    public static func refused(_ refusal: EgressRefusal, latency: Duration? = nil) -> DeliveryResult {
        DeliveryResult(.failed, reason: EgressRefusal.reason, detail: DeliveryDetail.bounded(refusal.rule), latency: latency)
    }
}
