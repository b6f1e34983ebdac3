import HeraldConfig
import HeraldCore
import HeraldHTTPClient
import HeraldService
import HeraldWebPush

/// `herald send --provider webpush`: a `WebPushProvider` on its own HTTP
/// client, with the app's VAPID key loaded as `herald run` loads it.
public struct WebPushSendProvider: SendProviderFactory {
    public let name = "webpush"

    public init() {}

    public func withProvider(
        app: String, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (any PushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport {
        guard let settings = config.configuration.apps[app]?.section(WebPushSettings.self) else {
            throw SendError("app '\(app)' has no webpush section in \(config.file)")
        }
        let configuration: WebPushProviderConfiguration
        do {
            configuration = try settings.providerConfiguration(resolve: config.resolve)
        } catch {
            throw SendError("webpush credentials of app '\(app)' cannot be used: \(error)")
        }
        do {
            return try await HTTPClient.withClient(configuration: settings.httpClientConfiguration(resolve: config.resolve), logger: logger) { client in
                await body(WebPushProvider(configuration: configuration, httpClient: client, logger: logger))
            }
        } catch {
            throw SendError("webpush: the HTTP client failed: \(error)")
        }
    }
}
