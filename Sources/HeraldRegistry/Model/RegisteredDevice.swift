import HeraldCore

/// What the registry knows of a device itself, the same on every channel of
/// its app (one `herald_devices` row, not one per membership): the keys a
/// Web Push subscription is encrypted for, and the device's time zone,
/// locale and free attributes.
///
/// A `register` carries one; fields left nil are not changed on a device
/// already registered, an empty time zone or locale (`""`) or attribute map
/// (`[:]`) clears the stored one.
public struct DeviceProfile: Sendable, Equatable {
    /// A Web Push subscription's keys; nil for a device of another provider.
    public var subscriptionKeys: SubscriptionKeys?
    /// The device's IANA time zone (`Europe/Paris`); nil when unknown.
    public var timezone: String?
    /// The device's BCP 47 locale (`fr-FR`); nil when unknown.
    public var locale: String?
    /// Free string attributes of the device; nil leaves those stored as they are.
    public var attributes: [String: String]?

    public init(
        subscriptionKeys: SubscriptionKeys? = nil, timezone: String? = nil, locale: String? = nil,
        attributes: [String: String]? = nil
    ) {
        self.subscriptionKeys = subscriptionKeys
        self.timezone = timezone
        self.locale = locale
        self.attributes = attributes
    }
}

/// The keys of a browser's push subscription as the registry stores them
/// (`keys.p256dh` and `keys.auth` of `PushSubscription.toJSON()`, URL-safe
/// base64): what each message to the subscription is encrypted for.
///
/// `auth` is a secret: ``description`` masks it whole.
public struct SubscriptionKeys: Sendable, Hashable, CustomStringConvertible {
    /// The browser's P-256 public key.
    public var p256dh: String
    /// The subscription's authentication secret.
    public var auth: String

    public init(p256dh: String, auth: String) {
        self.p256dh = p256dh
        self.auth = auth
    }

    /// What stands for `auth` wherever it is shown: none of it.
    public static let maskedAuth = "********"

    /// `p256dh=… auth=********`.
    public var description: String { "p256dh=\(p256dh) auth=\(Self.maskedAuth)" }
}

/// One device's row in the registry (`herald_devices`): its key, its
/// profile, and when it was first and last registered. What
/// ``RegistryStore/device(_:)`` reads.
public struct RegisteredDevice: Sendable, Equatable {
    public var key: DeviceKey
    public var subscriptionKeys: SubscriptionKeys?
    public var timezone: String?
    public var locale: String?
    /// Empty when the device has none.
    public var attributes: [String: String]
    /// The time of the device's latest `register`.
    public var lastSeen: Timestamp
    /// The time of its first `register` (the earliest of its memberships for
    /// a device registered before the registry kept devices).
    public var createdAt: Timestamp

    public init(
        key: DeviceKey, subscriptionKeys: SubscriptionKeys? = nil, timezone: String? = nil, locale: String? = nil,
        attributes: [String: String] = [:], lastSeen: Timestamp, createdAt: Timestamp
    ) {
        self.key = key
        self.subscriptionKeys = subscriptionKeys
        self.timezone = timezone
        self.locale = locale
        self.attributes = attributes
        self.lastSeen = lastSeen
        self.createdAt = createdAt
    }
}
