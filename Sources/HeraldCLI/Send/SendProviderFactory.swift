import HeraldConfig
import HeraldCore

/// How `herald send` reaches one provider: given an app's settings, builds a
/// `PushProvider` (and whatever transport it needs) for the duration of `body`.
/// A new provider is one more conformance in `SendCommand.standardProviders`.
public protocol SendProviderFactory: Sendable {
    /// The name `--provider` selects (`apns`, `fcm`).
    var name: String { get }
    func withProvider(
        app: String, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (any PushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport
}

/// What one delivery attempt came to, before it becomes an `Outcome`.
public enum DeliveryReport: Sendable, Equatable {
    case rejected(DeliveryRejection)
    case result(DeliveryResult)
    case failure(DeliveryFailure)
}

/// `herald send` cannot start: unknown app, provider not configured, unreadable key.
public struct SendError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
