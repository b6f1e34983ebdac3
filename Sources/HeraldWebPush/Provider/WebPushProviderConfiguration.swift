import HeraldCore
import HeraldHTTPClient

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
    /// The push service hosts subscriptions may name (`allowed_hosts`).
    public var allowedHosts: AllowedHosts
    /// The addresses the provider's HTTP client may connect to; checked here
    /// too on an endpoint whose host is an IP literal, before any request.
    public var egress: EgressPolicy

    /// The push services of the browsers that speak Web Push (the default
    /// `allowed_hosts`; docs/webpush.md gives the sources): Chrome, Edge on
    /// Android, Opera, Samsung Internet and the other Chromium browsers use
    /// Firebase Cloud Messaging; Firefox, Mozilla's autopush; Safari, Apple's
    /// push service; Edge on Windows, the Windows Push Notification Services.
    public static let browserPushServices = [
        "fcm.googleapis.com", "updates.push.services.mozilla.com", "push.apple.com", "notify.windows.com",
    ]

    /// Why a message may not go to `subscription`'s endpoint, checked before
    /// any request: an IP literal the egress policy refuses, or a host not in
    /// `allowed_hosts`. Nil when it may be sent (its resolved addresses are
    /// still checked at connect time).
    public func refusal(for subscription: WebPushSubscription) -> EgressRefusal? {
        Self.refusal(host: subscription.host, allowedHosts: allowedHosts, egress: egress)
    }

    /// Why a message may not go to an endpoint on `host`: the one rule, for
    /// sending and for registering a subscription.
    static func refusal(host: String, allowedHosts: AllowedHosts, egress: EgressPolicy) -> EgressRefusal? {
        if let refusal = egress.refusal(forHost: host) { return refusal }
        guard allowedHosts.allows(host) else {
            return EgressRefusal(rule: "the host \(host) is not in allowed_hosts (\(allowedHosts))")
        }
        return nil
    }

    /// Four weeks, the default of the common Web Push libraries.
    public static let defaultTTL: Duration = .seconds(28 * 24 * 60 * 60)

    public init(
        vapid: VAPIDTokenCache, defaultTTL: Duration = defaultTTL, requestTimeout: Duration = .seconds(10),
        allowedHosts: AllowedHosts = AllowedHosts(WebPushProviderConfiguration.browserPushServices),
        egress: EgressPolicy = .publicAddressesOnly
    ) {
        self.vapid = vapid
        self.allowedHosts = allowedHosts
        self.egress = egress
        self.defaultTTL = defaultTTL
        self.requestTimeout = requestTimeout
    }
}
