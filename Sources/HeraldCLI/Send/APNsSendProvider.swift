import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldService
import HeraldHTTPClient

/// `herald send --provider apns`: an `APNsProvider` on its own HTTP/2 client.
public struct APNsSendProvider: SendProviderFactory {
    public let name = "apns"

    public init() {}

    public func withProvider(
        app: String, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (any PushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport {
        guard let settings = config.configuration.apps[app]?.section(APNsSettings.self) else {
            throw SendError("app '\(app)' has no apns section in \(config.file)")
        }
        let configuration: APNsProviderConfiguration
        do {
            configuration = try APNsProviderConfiguration(settings: settings, resolvePath: config.resolve)
        } catch {
            throw SendError(error.description)
        }
        do {
            return try await HTTPClient.withClient(configuration: configuration.httpClientConfiguration, logger: logger) { client in
                await body(APNsProvider(configuration: configuration, client: client, logger: logger))
            }
        } catch {
            throw SendError("apns: the HTTP client failed: \(error)")
        }
    }
}
