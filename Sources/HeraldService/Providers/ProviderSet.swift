import HeraldConfig
import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit

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
        /// Why these credentials cannot be used, as `herald check`, `herald run` and `herald send` say it.
        public func unusable(_ error: ProviderSetupError) -> String {
            "\(provider) credentials of app '\(app)' cannot be used: \(error.message)"
        }
        /// The `/readyz` condition of these credentials: `credentials_chat_apns`.
        public var readinessCondition: String { "credentials_\(app)_\(provider.rawValue)" }
    }

    /// `herald run` with `unusable_credentials: exit` (the default) and
    /// credentials that cannot be used: one line per app and provider.
    public struct UnusableCredentialsError: Error, Sendable, CustomStringConvertible {
        public let reasons: [Key: String]

        public var description: String {
            let lines = ProviderSet.inOrder(reasons).map(\.reason)
            return
                "credentials cannot be used (fix them, or set unusable_credentials: not_ready to run the other apps): "
                + lines.joined(separator: "; ")
        }
    }

    private let providers: [Key: AppProvider]
    let clients: [HTTPClient]
    /// Why a configured provider is not available, by app and provider.
    public let unavailable: [Key: String]
    /// `apps.<app>.timeout_retries`, by app.
    private let timeoutRetries: [String: Int]

    init(
        providers: [Key: AppProvider], clients: [HTTPClient], unavailable: [Key: String],
        timeoutRetries: [String: Int] = [:]
    ) {
        self.providers = providers
        self.clients = clients
        self.unavailable = unavailable
        self.timeoutRetries = timeoutRetries
    }

    /// Builds a provider for every app and provider in `config`, on HTTP/2
    /// clients shared by TLS identity (`SharedHTTPClients`).
    /// - Parameter onRefresh: told of every credential renewal, by provider (metrics).
    public static func make(
        config: LoadedConfig, logger: Logger,
        onRefresh: @escaping @Sendable (Provider, Bool) -> Void = { _, _ in }
    ) -> ProviderSet {
        var unavailable: [Key: String] = [:]
        func unusable(_ key: Key, _ error: ProviderSetupError) { unavailable[key] = key.unusable(error) }
        // First what each provider needs of its client, so shared clients are made once with every sharer known.
        var setups: [(key: Key, setup: ProviderSetup)] = []
        let shared = ProviderSharedObjects()
        var sharedClients = SharedHTTPClients()
        sharedClients.pacingWindow = config.configuration.ioPacing.duration
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            for section in settings.orderedSections {
                let provider = type(of: section).provider
                let key = Key(app: app, provider: provider)
                let context = config.providerSetupContext(
                    app: app, logger: logger.with(["app": .string(app)]), onRefresh: { onRefresh(provider, $0) },
                    shared: shared)
                do throws(ProviderSetupError) {
                    let setup = try section.setUp(context)
                    setups.append((key, setup))
                    sharedClients.register(setup.httpClient, app: app)
                } catch {
                    unusable(key, error)
                }
            }
        }
        let clients = sharedClients.clients(logger: logger)
        var used: [SharedHTTPClients.Key: HTTPClient] = [:]
        var providers: [Key: AppProvider] = [:]
        for (key, setup) in setups {
            let clientKey = SharedHTTPClients.Key(setup.httpClient)
            guard let client = clients[clientKey] else { continue }
            do throws(ProviderSetupError) {
                providers[key] = try setup.make(client)
                used[clientKey] = client
            } catch {
                unusable(key, error)
            }
        }
        for (key, reason) in inOrder(unavailable) {
            logger.error(
                "provider unavailable",
                [
                    "app": .string(key.app), "provider": .string(key.provider.rawValue),
                    "reason": .string(reason),
                ])
        }
        // A client no loaded provider uses is never started.
        return ProviderSet(
            providers: providers, clients: Array(used.values), unavailable: unavailable,
            timeoutRetries: config.configuration.apps.mapValues(\.timeoutRetries))
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
        providers[Key(app: app, provider: provider)]?.provider.base
    }

    /// The provider delivering `app`'s notification to `target` (for an APNs
    /// device of the environment other than the app's, the one sending to
    /// that environment's host), else why there is none.
    public func provider(app: String, for target: Target) -> Result<AnyPushProvider, UnavailableProvider> {
        let key = Key(app: app, provider: target.provider)
        guard let provider = providers[key] else {
            return .failure(
                UnavailableProvider(reason: unavailable[key] ?? "app '\(app)' has no \(target.provider) provider"))
        }
        return provider.provider(for: target)
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

extension LoadedConfig {
    /// What a provider's section is set up with for `app`: paths resolved
    /// against the config file's directory (`herald run` and `herald send` alike).
    public func providerSetupContext(
        app: String, logger: Logger, onRefresh: CredentialRefreshHook?, shared: ProviderSharedObjects
    ) -> ProviderSetupContext {
        let checks = ConfigChecks(baseDirectory: baseDirectory)
        return ProviderSetupContext(
            app: app, resolvePath: { checks.resolve($0) }, logger: logger, onRefresh: onRefresh, shared: shared)
    }
}
