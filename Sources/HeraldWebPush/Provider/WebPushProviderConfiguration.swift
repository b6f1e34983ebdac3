import HeraldCore

/// What a Web Push provider sends with: the application server's VAPID
/// tokens (one per push service origin) and the defaults of its messages.
/// The service maps an app's `webpush:` section onto it.
public struct WebPushProviderConfiguration: Sendable {
    /// Signs and caches the VAPID `Authorization` of each push service origin.
    public var vapid: VAPIDTokenCache
    /// The `TTL` of a message whose event has no `ttl` or `expires_at`.
    public var defaultTTL: Duration
    /// How long one request may take, answer included.
    public var requestTimeout: Duration
    /// Whose requests these are on the shared HTTP client (the app;
    /// `HTTPClientRequest.tenant`): each app has its share of the client's window.
    public var tenant = ""

    /// Four weeks, the default of the common Web Push libraries.
    public static let defaultTTL: Duration = .seconds(28 * 24 * 60 * 60)

    public init(vapid: VAPIDTokenCache, defaultTTL: Duration = defaultTTL, requestTimeout: Duration = .seconds(10)) {
        self.vapid = vapid
        self.defaultTTL = defaultTTL
        self.requestTimeout = requestTimeout
    }
}
