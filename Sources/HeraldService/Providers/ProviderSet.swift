import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldFCM
import HeraldHTTPClient

/// The push providers of every configured app, built once at start-up, on
/// HTTP/2 clients shared by TLS identity (`SharedHTTPClients`).
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

    /// Builds a provider for every app and provider in `config`, on HTTP/2
    /// clients shared by TLS identity (`SharedHTTPClients`).
    /// - Parameter onRefresh: told of every credential renewal, by provider (metrics).
    public static func make(config: LoadedConfig, logger: Logger,
                            onRefresh: @escaping @Sendable (Provider, Bool) -> Void = { _, _ in }) -> ProviderSet {
        var unavailable: [Key: String] = [:]
        // First what each provider needs of its client, so shared clients are made once with every sharer known.
        var apnsConfigurations: [(app: String, configuration: APNsProviderConfiguration)] = []
        var fcmSettings: [(app: String, settings: FCMSettings, client: HTTPClientConfiguration)] = []
        // Apps signing with one APNs key share its provider token (Apple allows one per key).
        let providerTokens = ProviderTokenRegistry()
        var shared = SharedHTTPClients()
        shared.pacingWindow = config.configuration.ioPacing.duration
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            if let apns = settings.apns {
                do {
                    let configuration = try APNsProviderConfiguration(
                        settings: apns, resolvePath: config.resolve, onRefresh: { onRefresh(.apns, $0) }, tokens: providerTokens)
                    apnsConfigurations.append((app, configuration))
                    shared.register(configuration.httpClientConfiguration, app: app)
                } catch {
                    unavailable[Key(app: app, provider: .apns)] = "apns credentials of app '\(app)' cannot be used: \(error)"
                }
            }
            if let fcm = settings.fcm {
                let client = FCMProvider.httpClientConfiguration(settings: fcm, resolve: config.resolve)
                fcmSettings.append((app, fcm, client))
                shared.register(client, app: app)
            }
        }
        let clients = shared.clients(logger: logger)
        var used: [SharedHTTPClients.Key: HTTPClient] = [:]
        var providers: [Key: any PushProvider] = [:]
        for (app, configuration) in apnsConfigurations {
            let key = SharedHTTPClients.Key(configuration.httpClientConfiguration)
            guard let client = clients[key] else { continue }
            providers[Key(app: app, provider: .apns)] = APNsProvider(
                configuration: configuration, client: client, logger: logger.with(["app": .string(app)]))
            used[key] = client
        }
        for (app, settings, clientConfiguration) in fcmSettings {
            let key = SharedHTTPClients.Key(clientConfiguration)
            guard let client = clients[key] else { continue }
            do {
                providers[Key(app: app, provider: .fcm)] = try FCMProvider.make(
                    settings: settings, resolve: config.resolve, httpClient: client,
                    logger: logger.with(["app": .string(app)]), onRefresh: { onRefresh(.fcm, $0) })
                used[key] = client
            } catch {
                unavailable[Key(app: app, provider: .fcm)] = "fcm credentials of app '\(app)' cannot be used: \(error)"
            }
        }
        for (key, reason) in unavailable.sorted(by: { $0.key.description < $1.key.description }) {
            logger.error("provider unavailable", ["app": .string(key.app), "provider": .string(key.provider.rawValue),
                                                  "reason": .string(reason)])
        }
        // A client no loaded provider uses is never started.
        return ProviderSet(providers: providers, clients: Array(used.values), unavailable: unavailable)
    }

    /// How many HTTP/2 clients (loop threads) the providers share.
    public var clientCount: Int { clients.count }

    /// Each client's `io_pacing` window.
    var clientPacingWindows: [Duration] { clients.map(\.configuration.pacingWindow) }

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
