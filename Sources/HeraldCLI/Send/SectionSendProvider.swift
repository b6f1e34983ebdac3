import HeraldConfig
import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit
import HeraldService

/// `herald send --provider NAME`: the app's provider built from its config
/// section exactly as `herald run` builds it (`ProviderSettings.setUp`), on
/// an HTTP client of its own. One per registered provider.
public struct SectionSendProvider: SendProviderFactory {
    public let provider: Provider

    public init(_ provider: Provider) {
        self.provider = provider
    }

    public var name: String { provider.rawValue }

    public func withProvider(
        app: String, for target: Target, config: LoadedConfig, logger: Logger,
        _ body: @Sendable (AnyPushProvider) async -> DeliveryReport
    ) async throws(SendError) -> DeliveryReport {
        guard let section = config.configuration.apps[app]?.sections[provider] else {
            throw SendError("app '\(app)' has no \(provider) section in \(config.file)")
        }
        let key = ProviderSet.Key(app: app, provider: provider)
        let context = config.providerSetupContext(
            app: app, logger: logger, onRefresh: nil, shared: ProviderSharedObjects())
        let setup: ProviderSetup
        do throws(ProviderSetupError) {
            setup = try section.setUp(context)
        } catch {
            throw SendError(key.unusable(error))
        }
        do {
            return try await HTTPClient.withClient(configuration: setup.httpClient, logger: logger) { client in
                let appProvider: AppProvider
                do throws(ProviderSetupError) {
                    appProvider = try setup.make(client)
                } catch {
                    throw SendError(key.unusable(error))
                }
                switch appProvider.provider(for: target) {
                case .success(let provider): return await body(provider)
                case .failure(let unavailable): return DeliveryReport(.unavailable(unavailable.reason))
                }
            }
        } catch let error as SendError {
            throw error
        } catch {
            throw SendError("\(provider): the HTTP client failed: \(error)")
        }
    }
}
