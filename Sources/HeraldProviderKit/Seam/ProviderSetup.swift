import HeraldCore
import HeraldHTTPClient
import HeraldSystem

/// What a provider's section needs from the service to build its provider.
public struct ProviderSetupContext: Sendable {
    /// The app the section belongs to.
    public let app: String
    /// Makes config-relative paths absolute.
    public let resolvePath: @Sendable (String) -> String
    /// The app's logger (`app` is set).
    public let logger: Logger
    /// Told of every credential renewal (metrics).
    public let onRefresh: CredentialRefreshHook?
    /// Objects shared by every app of one provider set (APNs apps signing with
    /// one key share its provider token).
    public let shared: ProviderSharedObjects

    public init(
        app: String, resolvePath: @escaping @Sendable (String) -> String, logger: Logger,
        onRefresh: CredentialRefreshHook?, shared: ProviderSharedObjects
    ) {
        self.app = app
        self.resolvePath = resolvePath
        self.logger = logger
        self.onRefresh = onRefresh
        self.shared = shared
    }
}

/// A section's credentials, loaded: the HTTP client they need and how to
/// make the provider on it.
public struct ProviderSetup {
    /// The client the provider sends through. Providers whose clients have the
    /// same TLS identity and engine share one.
    public let httpClient: HTTPClientConfiguration
    /// Makes the app's provider on the client made for `httpClient`.
    public let make: (HTTPClient) throws(ProviderSetupError) -> AppProvider

    public init(
        httpClient: HTTPClientConfiguration, make: @escaping (HTTPClient) throws(ProviderSetupError) -> AppProvider
    ) {
        self.httpClient = httpClient
        self.make = make
    }
}

/// Why a section's credentials cannot make a provider: `herald check` lists
/// it, `herald run` refuses to start (or runs the other apps, with
/// `unusable_credentials: not_ready`).
public struct ProviderSetupError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One app's provider, and where a target it cannot take goes instead: where
/// a provider module's provider becomes an ``AnyPushProvider``, once.
public struct AppProvider: Sendable {
    public let provider: AnyPushProvider
    /// For a target the provider must not take itself (an APNs device of the
    /// other environment): the provider that takes it, or why there is none.
    /// Nil for every target `provider` takes.
    public let redirect: (@Sendable (Target) -> Result<AnyPushProvider, UnavailableProvider>?)?

    public init(
        _ provider: some PushProvider,
        redirect: (@Sendable (Target) -> Result<AnyPushProvider, UnavailableProvider>?)? = nil
    ) {
        self.provider = AnyPushProvider(provider)
        self.redirect = redirect
    }

    /// The provider for `target`, or why there is none.
    public func provider(for target: Target) -> Result<AnyPushProvider, UnavailableProvider> {
        redirect?(target) ?? .success(provider)
    }
}

/// Why a target's provider is not there: the reason its `failed` outcome gives.
public struct UnavailableProvider: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Objects the apps of one provider set share, one per type, made on first use.
public final class ProviderSharedObjects: Sendable {
    private let objects = Locked<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    /// The shared object of type `T`, made by `make` the first time.
    public func object<T: Sendable>(_ type: T.Type, make: () -> T) -> T {
        objects.withLock { objects in
            if let existing = objects[ObjectIdentifier(type)] as? T { return existing }
            let made = make()
            objects[ObjectIdentifier(type)] = made
            return made
        }
    }
}
