import HeraldConfig
import HeraldCore
import HeraldProviderKit

/// `herald check --online`: proves each app's credentials against the real
/// endpoints before the first notification does, by each provider's own
/// probe (`CredentialProbing`: APNs sends to an all-zero device token, FCM
/// exchanges the OAuth assertion and validates a message to the project, Web
/// Push proves its VAPID key signs). Nothing reaches a device.
public enum CredentialProbe {
    /// One check of one app's provider (FCM has two: OAuth, then the project).
    public struct Result: Sendable, Equatable, CustomStringConvertible {
        public let app: String
        public let provider: Provider
        public let ok: Bool
        public let detail: String

        public var description: String { "\(app)/\(provider): \(ok ? "ok" : "FAILED"): \(detail)" }
    }

    public static func run(config: LoadedConfig, logger: Logger) async -> [Result] {
        let providers = ProviderSet.make(config: config, logger: logger)
        let clients = Task { try await providers.run() }
        defer {
            providers.shutdown()
            clients.cancel()
        }
        var results: [Result] = []
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            for provider in settings.configuredProviders {
                results += await probe(app: app, provider: provider, providers: providers)
            }
        }
        return results
    }

    static func probe(app: String, provider: Provider, providers: ProviderSet) async -> [Result] {
        func result(_ ok: Bool, _ detail: String) -> Result {
            Result(app: app, provider: provider, ok: ok, detail: detail)
        }
        guard let push = providers.provider(app: app, provider) else {
            let reason = providers.unavailable[ProviderSet.Key(app: app, provider: provider)] ?? "not configured"
            return [result(false, reason)]
        }
        guard let probing = push as? any CredentialProbing else {
            return [result(true, "loaded; \(provider) has no online check")]
        }
        return await probing.probeCredentials().map { result($0.ok, $0.detail) }
    }
}
