import HeraldConfig
import HeraldCore
import HeraldService
import HeraldFCM
import HeraldHTTPClient

/// `herald send --provider fcm`: an `FCMProvider` on its own HTTP/2 client,
/// which also carries the OAuth exchange with the key's `token_uri`.
public struct FCMSendProvider: SendProviderFactory {
    public let name = "fcm"

    public init() {}

    public func withProvider(
        app: String, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (any PushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport {
        guard let settings = config.configuration.apps[app]?.section(FCMSettings.self) else {
            throw SendError("app '\(app)' has no fcm section in \(config.file)")
        }
        let clientConfiguration = FCMProvider.httpClientConfiguration(settings: settings, resolve: config.resolve)
        do {
            return try await HTTPClient.withClient(configuration: clientConfiguration, logger: logger) { client in
                let provider: FCMProvider
                do {
                    provider = try FCMProvider.make(settings: settings, resolve: config.resolve, httpClient: client, logger: logger)
                } catch {
                    throw SendError("\(error)")
                }
                return await body(provider)
            }
        } catch let error as SendError {
            throw error
        } catch {
            throw SendError("fcm: the HTTP client failed: \(error)")
        }
    }
}
