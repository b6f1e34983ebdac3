import HeraldConfig
import HeraldCore
import HeraldPipeline

/// How `herald send` reaches one provider: given an app's settings, builds
/// the `PushProvider` for `target` (and whatever transport it needs) for the
/// duration of `body`. Every registered provider has one (`SectionSendProvider`).
public protocol SendProviderFactory: Sendable {
    /// The name `--provider` selects (`apns`, `fcm`, `webpush`).
    var name: String { get }
    func withProvider(
        app: String, for target: Target, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (AnyPushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport
}

/// What `herald send` came to: the provider's answer and the attempt that
/// got it, turned into an outcome by the service's own `OutcomeBuilder`.
public struct DeliveryReport: Sendable, Equatable {
    public var answer: ProviderAnswer
    public var attempt: Int

    public init(_ answer: ProviderAnswer, attempt: Int = 1) {
        self.answer = answer
        self.attempt = attempt
    }
}

/// `herald send` cannot start: unknown app, provider not configured, unreadable key.
public struct SendError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
