import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldFCM
import HeraldHTTPClient
import HeraldWebPush

/// The push providers of every configured app, built once at start-up, on
/// HTTP/2 clients shared by TLS identity (`SharedHTTPClients`).
///
/// Every credential is loaded and proven as it will be used (a key signs, a
/// certificate opens with its password, a service account's key is RSA and
/// signs). One that cannot be is recorded in `unavailable` with the reason:
/// `herald check` lists them, `herald run` refuses to start
/// (`UnusableCredentialsError`) or, with `unusable_credentials: not_ready`,
/// runs the other apps, fails `/readyz` and fails that app's targets.
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
        /// Where the credentials are in `config.yaml`: `apps.chat.apns`.
        public var configPath: String { "apps.\(app).\(provider.rawValue)" }
        /// The `/readyz` condition of these credentials: `credentials_chat_apns`.
        public var readinessCondition: String { "credentials_\(app)_\(provider.rawValue)" }
    }

    /// `herald run` with `unusable_credentials: exit` (the default) and
    /// credentials that cannot be used: one line per app and provider.
    public struct UnusableCredentialsError: Error, Sendable, CustomStringConvertible {
        public let reasons: [Key: String]

        public var description: String {
            let lines = ProviderSet.inOrder(reasons).map(\.reason)
            return "credentials cannot be used (fix them, or set unusable_credentials: not_ready to run the other apps): "
                + lines.joined(separator: "; ")
        }
    }

    private let providers: [Key: any PushProvider]
    let clients: [HTTPClient]
    /// Why a configured provider is not available, by app and provider.
    public let unavailable: [Key: String]
    /// `apps.<app>.timeout_retries`, by app.
    private let timeoutRetries: [String: Int]
    /// Each APNs app's provider for the environment other than its own, for
    /// devices whose token belongs there (same credentials and client, the
    /// other host), or why there is none.
    private let otherAPNsEnvironments: [String: OtherEnvironment]

    /// An APNs app's way to the environment it is not configured for.
    struct OtherEnvironment {
        let environment: APNsEnvironment
        let provider: Result<any PushProvider, UnavailableProvider>
    }

    init(providers: [Key: any PushProvider], clients: [HTTPClient], unavailable: [Key: String],
         timeoutRetries: [String: Int] = [:], otherAPNsEnvironments: [String: OtherEnvironment] = [:]) {
        self.providers = providers
        self.clients = clients
        self.unavailable = unavailable
        self.timeoutRetries = timeoutRetries
        self.otherAPNsEnvironments = otherAPNsEnvironments
    }

    /// Builds a provider for every app and provider in `config`, on HTTP/2
    /// clients shared by TLS identity (`SharedHTTPClients`).
    /// - Parameter onRefresh: told of every credential renewal, by provider (metrics).
    public static func make(config: LoadedConfig, logger: Logger,
                            onRefresh: @escaping @Sendable (Provider, Bool) -> Void = { _, _ in }) -> ProviderSet {
        var unavailable: [Key: String] = [:]
        // First what each provider needs of its client, so shared clients are made once with every sharer known.
        var apnsConfigurations: [(app: String, settings: APNsSettings, configuration: APNsProviderConfiguration)] = []
        var fcmSettings: [(app: String, settings: FCMSettings, client: HTTPClientConfiguration)] = []
        var webPushConfigurations: [(app: String, configuration: WebPushProviderConfiguration, client: HTTPClientConfiguration)] = []
        // Apps signing with one APNs key share its provider token (Apple allows one per key).
        let providerTokens = ProviderTokenRegistry()
        var shared = SharedHTTPClients()
        shared.pacingWindow = config.configuration.ioPacing.duration
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            if let apns = settings.apns {
                do {
                    let configuration = try APNsProviderConfiguration(
                        settings: apns, resolvePath: config.resolve, onRefresh: { onRefresh(.apns, $0) }, tokens: providerTokens)
                    apnsConfigurations.append((app, apns, configuration))
                    shared.register(configuration.httpClientConfiguration, app: app)
                } catch {
                    unavailable[Key(app: app, provider: .apns)] = "apns credentials of app '\(app)' cannot be used: \(error.message)"
                }
            }
            if let fcm = settings.fcm {
                let client = FCMProvider.httpClientConfiguration(settings: fcm, resolve: config.resolve)
                fcmSettings.append((app, fcm, client))
                shared.register(client, app: app)
            }
            if let webpush = settings.webpush {
                do {
                    let client = webpush.httpClientConfiguration(resolve: config.resolve)
                    webPushConfigurations.append((app, try webpush.providerConfiguration(resolve: config.resolve), client))
                    shared.register(client, app: app)
                } catch {
                    unavailable[Key(app: app, provider: .webpush)] = "webpush credentials of app '\(app)' cannot be used: \(error)"
                }
            }
        }
        let clients = shared.clients(logger: logger)
        var used: [SharedHTTPClients.Key: HTTPClient] = [:]
        var providers: [Key: any PushProvider] = [:]
        var otherAPNsEnvironments: [String: OtherEnvironment] = [:]
        for (app, settings, configuration) in apnsConfigurations {
            let key = SharedHTTPClients.Key(configuration.httpClientConfiguration)
            guard let client = clients[key] else { continue }
            let appLogger = logger.with(["app": .string(app)])
            providers[Key(app: app, provider: .apns)] = APNsProvider(configuration: configuration, client: client, logger: appLogger)
            used[key] = client
            // The same credentials and client reach the other environment's host: Apple's keys and
            // universal certificates serve both. Its connections open on its first device.
            let other = settings.environment.other
            let provider: Result<any PushProvider, UnavailableProvider>
            if let baseURL = settings.baseURL(for: other) {
                provider = .success(APNsProvider(configuration: configuration.sending(to: baseURL), client: client,
                                                 logger: appLogger.with(["environment": .string(other.rawValue)])))
            } else {
                provider = .failure(UnavailableProvider(reason:
                    "app '\(app)' has no endpoint for APNs \(other.rawValue) devices: apps.\(app).apns.endpoint replaces "
                    + "Apple's \(settings.environment.rawValue) host only; set apps.\(app).apns.endpoints.\(other.rawValue)"))
            }
            otherAPNsEnvironments[app] = OtherEnvironment(environment: other, provider: provider)
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
        for (app, configuration, clientConfiguration) in webPushConfigurations {
            let key = SharedHTTPClients.Key(clientConfiguration)
            guard let client = clients[key] else { continue }
            do {
                try client.configuration.tls.validate()
            } catch {
                unavailable[Key(app: app, provider: .webpush)] = "webpush credentials of app '\(app)' cannot be used: ca_file: \(error.message)"
                continue
            }
            providers[Key(app: app, provider: .webpush)] = WebPushProvider(
                configuration: configuration, httpClient: client, logger: logger.with(["app": .string(app)]).child("webpush"))
            used[key] = client
        }
        for (key, reason) in inOrder(unavailable) {
            logger.error("provider unavailable", ["app": .string(key.app), "provider": .string(key.provider.rawValue),
                                                  "reason": .string(reason)])
        }
        // A client no loaded provider uses is never started.
        return ProviderSet(providers: providers, clients: Array(used.values), unavailable: unavailable,
                           timeoutRetries: config.configuration.apps.mapValues(\.timeoutRetries),
                           otherAPNsEnvironments: otherAPNsEnvironments)
    }

    /// Unavailable credentials by app, then provider: the order they are logged and listed in.
    public static func inOrder(_ reasons: [Key: String]) -> [(key: Key, reason: String)] {
        reasons.sorted { $0.key.description < $1.key.description }.map { (key: $0.key, reason: $0.value) }
    }

    /// How many HTTP/2 clients (loop threads) the providers share.
    public var clientCount: Int { clients.count }

    /// Each client's `io_pacing` window.
    var clientPacingWindows: [Duration] { clients.map(\.configuration.pacingWindow) }

    /// How many times a send of `app` whose answer was lost is sent again at once, before the retry policy takes over.
    public func timeoutRetries(app: String) -> Int {
        timeoutRetries[app] ?? AppSettings.defaultTimeoutRetries
    }

    /// The provider delivering `app`'s notifications through `provider`, if it loaded.
    public func provider(app: String, _ provider: Provider) -> (any PushProvider)? {
        providers[Key(app: app, provider: provider)]
    }

    /// The provider delivering `app`'s notification to `target`: for an APNs
    /// device of the environment other than the app's, the one sending to
    /// that environment's host. Else why there is none.
    public func provider(app: String, for target: Target) -> Result<any PushProvider, UnavailableProvider> {
        let key = Key(app: app, provider: target.provider)
        guard let provider = providers[key] else {
            return .failure(UnavailableProvider(reason: unavailable[key] ?? "app '\(app)' has no \(target.provider) provider"))
        }
        guard target.provider == .apns, let environment = target.apns.environment,
              let other = otherAPNsEnvironments[app], other.environment == environment
        else { return .success(provider) }
        return other.provider
    }

    /// Why a target's provider is not there: the reason its `failed` outcome gives.
    public struct UnavailableProvider: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
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
