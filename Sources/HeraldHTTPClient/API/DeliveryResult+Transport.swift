import HeraldCore

/// How a provider's outcome reasons name a transport error. APNs outcomes
/// give the error's kind bare (`connectFailed: connection refused`); FCM and
/// Web Push outcomes prefix it (`transport connectFailed: connection
/// refused`). Consumers read both, so each provider keeps its wording and
/// every provider maps the error through ``DeliveryResult/unanswered(_:latency:naming:)``.
public enum TransportNaming: Sendable {
    /// `<kind>: <message>`; an error that is not the client's is its description.
    case kind
    /// `transport <kind>: <message>`; an error that is not the client's is `transport: <description>`.
    case transportKind

    /// The reason `error` gets in a provider's outcome.
    public func reason(_ error: any Error) -> String {
        guard let error = error as? HTTPClientError else {
            return self == .kind ? "\(error)" : "transport: \(error)"
        }
        return (self == .kind ? "" : "transport ") + "\(error.kind.rawValue): \(error.message)"
    }
}

extension DeliveryResult {
    /// What a provider reports for a request that got no answer: a lost
    /// answer (the provider may have it) and what a new connection may fix
    /// are retried; what it cannot (our TLS material, an oversized answer) fails.
    /// The one mapping from a transport error to a target's answer, used by every provider.
    public static func unanswered(_ error: any Error, latency: Duration, naming: TransportNaming = .transportKind)
        throws(DeliveryFailure) -> DeliveryResult
    {
        let reason = naming.reason(error)
        guard let error = error as? HTTPClientError else { throw DeliveryFailure(reason: reason, latency: latency) }
        if error.kind == .egressRefused { return .refused(EgressRefusal(rule: error.message), latency: latency) }
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
        DeliveryResult(
            .failed, reason: EgressRefusal.reason, detail: DeliveryDetail.bounded(refusal.rule), latency: latency)
    }
}
