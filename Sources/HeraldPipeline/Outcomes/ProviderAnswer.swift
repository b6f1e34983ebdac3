import HeraldCore

/// What came of trying one target with its provider, before it becomes an
/// outcome: `herald run` and `herald send` both hand it to ``OutcomeBuilder``,
/// so one answer is reported the same way by both.
public enum ProviderAnswer: Sendable, Equatable {
    /// The app's provider could not be loaded (unusable credentials): why.
    case unavailable(String)
    /// Refused before sending: the event cannot go to this target as written.
    case rejected(DeliveryRejection)
    /// The provider's definitive answer.
    case result(DeliveryResult)
    /// A transient failure: retried while attempts are left.
    case failure(DeliveryFailure)
    /// Not sent, on purpose (a route's rate with `on_exceed: drop`, a duplicate event): why.
    case dropped(String)
}
