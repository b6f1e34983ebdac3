import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldFCM
import HeraldHTTPClient

/// The push providers of every configured app, each on its own HTTP/2 client,
/// built once at start-up.
///
/// An app whose credentials cannot be loaded does not stop the others: its
/// provider is recorded as unavailable with the reason, and its targets fail
/// with that reason until the config is fixed.
public final class ProviderSet: Sendable {
    /// One app's credentials for one provider.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public let app: String
        public let provider: Provider
        public init(app: String, provider: Provider) {
            self.app = app
            self.provider = provider
        }
        public var description: String { "\(app)/\(provider)" }
    }

    private let providers: [Key: any PushProvider]
    private let clients: [HTTPClient]
    /// Why a configured provider is not available, by app and provider.
    public let unavailable: [Key: String]

    init(providers: [Key: any PushProvider], clients: [HTTPClient], unavailable: [Key: String]) {
        self.providers = providers
        self.clients = clients
        self.unavailable = unavailable
    }

    /// Builds a provider for every app and provider in `config`.
    /// - Parameter onRefresh: told of every credential renewal, by provider (metrics).
    public static func make(config: LoadedConfig, logger: Logger,
                            onRefresh: @escaping @Sendable (Provider, Bool) -> Void = { _, _ in }) -> ProviderSet {
        var providers: [Key: any PushProvider] = [:]
        var clients: [HTTPClient] = []
        var unavailable: [Key: String] = [:]
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            let appLogger = logger.with(["app": .string(app)])
            if let apns = settings.apns {
                let key = Key(app: app, provider: .apns)
                do {
                    let configuration = try APNsProviderConfiguration(
                        settings: apns, resolvePath: config.resolve, onRefresh: { onRefresh(.apns, $0) })
                    let client = HTTPClient(configuration: configuration.httpClientConfiguration, logger: appLogger.child("apns"))
                    clients.append(client)
                    providers[key] = APNsProvider(configuration: configuration, client: client, logger: appLogger)
                } catch {
                    unavailable[key] = "apns credentials of app '\(app)' cannot be used: \(error)"
                }
            }
            if let fcm = settings.fcm {
                let key = Key(app: app, provider: .fcm)
                let client = HTTPClient(
                    configuration: FCMProvider.httpClientConfiguration(settings: fcm, resolve: config.resolve),
                    logger: appLogger.child("fcm"))
                do {
                    providers[key] = try FCMProvider.make(settings: fcm, resolve: config.resolve, httpClient: client,
                                                          logger: appLogger, onRefresh: { onRefresh(.fcm, $0) })
                    clients.append(client)
                } catch {
                    unavailable[key] = "fcm credentials of app '\(app)' cannot be used: \(error)"
                }
            }
        }
        for (key, reason) in unavailable.sorted(by: { $0.key.description < $1.key.description }) {
            logger.error("provider unavailable", ["app": .string(key.app), "provider": .string(key.provider.rawValue),
                                                  "reason": .string(reason)])
        }
        return ProviderSet(providers: providers, clients: clients, unavailable: unavailable)
    }

    /// The provider delivering `app`'s notifications through `provider`, if it loaded.
    public func provider(app: String, _ provider: Provider) -> (any PushProvider)? {
        providers[Key(app: app, provider: provider)]
    }

    /// Runs every HTTP client's loop thread until `shutdown()` or cancellation.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { try await client.run() } }
            try await group.waitForAll()
        }
    }

    /// Stops every HTTP client; requests still waiting fail.
    public func shutdown() {
        for client in clients { client.shutdown() }
    }
}
