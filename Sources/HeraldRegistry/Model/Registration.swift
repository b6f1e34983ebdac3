import HeraldCore

/// One device on one channel, as the store keeps it: what publishing to the
/// channel expands to, with the APNs overrides the device registered with
/// and the device's own row.
///
/// Times are kept to the microsecond (PostgreSQL's precision, and the
/// SQLite backend's too), so a registration read back has its times
/// truncated to whole microseconds.
public struct Registration: Sendable, Equatable {
    public var device: DeviceKey
    public var channel: String
    /// `production` or `sandbox`: the APNs environment this device's token
    /// belongs to, instead of the app's configured one; nil uses the app's.
    public var environment: String?
    /// The APNs topic (bundle ID) for this device instead of the app's; nil uses the app's.
    public var topic: String?
    public var createdAt: Timestamp
    /// When the overrides last changed, or the membership moved to a new token.
    public var updatedAt: Timestamp
    /// The device's own values (its ``RegisteredDevice`` row), the same on
    /// every channel: a Web Push subscription's keys, which a message to it
    /// is encrypted for.
    public var subscriptionKeys: SubscriptionKeys?
    public var timezone: String?
    public var locale: String?
    public var attributes: [String: String]
    /// Why the subscription keys could not be read (its secret is encrypted
    /// under another key than the store's), naming the device; nil when
    /// they were. The device is in its page without keys, and fails alone.
    public var unreadableKeys: String?

    public init(
        device: DeviceKey, channel: String, environment: String?, topic: String?, createdAt: Timestamp,
        updatedAt: Timestamp, subscriptionKeys: SubscriptionKeys? = nil, timezone: String? = nil,
        locale: String? = nil, attributes: [String: String] = [:], unreadableKeys: String? = nil
    ) {
        self.device = device
        self.channel = channel
        self.environment = environment
        self.topic = topic
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.subscriptionKeys = subscriptionKeys
        self.timezone = timezone
        self.locale = locale
        self.attributes = attributes
        self.unreadableKeys = unreadableKeys
    }
}
