/// One recipient of an event: a provider and exactly one address on it.
///
/// An event fans out to its targets; each target gets exactly one outcome.
/// The address kinds are a closed set, so "a token and a topic at once" or
/// "no address" cannot be represented.
public struct Target: Sendable, Hashable {
    /// Where on the provider the notification goes.
    public enum Address: Sendable, Hashable {
        /// A device: an APNs device token (hex) or an FCM registration token.
        case token(String)
        /// A device by its Firebase installation ID, FCM's `message.fid` (FCM only).
        case fid(String)
        /// An FCM topic name, without the `/topics/` prefix (FCM only).
        case topic(String)
        /// An FCM condition such as `'news' in topics && 'fr' in topics` (FCM only).
        case condition(String)
        /// A browser's push subscription, by its endpoint URL (Web Push only;
        /// its keys are the target's ``Target/webPushKeys``).
        case endpoint(String)

        /// The field names of the address kinds in outcomes, registrations
        /// and events (where a Web Push target gives its endpoint inside
        /// `subscription`), and in FCM's `message`: the one list decoders,
        /// the retry body and the FCM size count read.
        public static let fieldNames = ["token", "fid", "topic", "condition", "endpoint"]

        /// The address a field of ``fieldNames`` holds, or nil for another name.
        public init?(field: String, value: String) {
            switch field {
            case "token": self = .token(value)
            case "fid": self = .fid(value)
            case "topic": self = .topic(value)
            case "condition": self = .condition(value)
            case "endpoint": self = .endpoint(value)
            default: return nil
            }
        }

        /// The field name of this kind of address in events and outcomes.
        public var field: String {
            switch self {
            case .token: "token"
            case .fid: "fid"
            case .topic: "topic"
            case .condition: "condition"
            case .endpoint: "endpoint"
            }
        }

        /// The token, FID, topic name, condition or endpoint.
        public var value: String {
            switch self {
            case .token(let value), .fid(let value), .topic(let value), .condition(let value), .endpoint(let value): value
            }
        }

        /// Whether the address names one device (a token, a FID, a browser's
        /// subscription) rather than a topic or condition: the answers that
        /// say "this device is gone" are about it, `exclude_tokens` may list
        /// it, and logs mask it.
        public var isDevice: Bool { Self.isDeviceField(field) }

        /// Whether the field of ``fieldNames`` named `field` holds a device (`token`, `fid`, `endpoint`).
        public static func isDeviceField(_ field: String) -> Bool { field == "token" || field == "fid" || field == "endpoint" }
    }

    public var provider: Provider
    public var address: Address
    /// The registry channel this device was reached through (a channel
    /// target's expansion), echoed in its outcome and kept in its retry.
    public var channel: String?
    /// An APNs device's own environment and topic (a registration's
    /// overrides, or the event's `environment` and `apns_topic`); empty for
    /// every other target.
    public var apns: APNsDeviceOverrides
    /// A Web Push subscription's keys, which its messages are encrypted for;
    /// nil for every other target.
    public var webPushKeys: WebPushKeys?

    /// A target as given. ``Event/decode(_:fallbackID:limits:)`` validates
    /// what events carry (no APNs topics, hex APNs tokens); code building
    /// targets itself is trusted to do the same.
    public init(provider: Provider, address: Address, channel: String? = nil, apns: APNsDeviceOverrides = APNsDeviceOverrides(),
                webPushKeys: WebPushKeys? = nil) {
        self.provider = provider
        self.address = address
        self.channel = channel
        self.apns = apns
        self.webPushKeys = webPushKeys
    }

    /// The device token, if the target is addressed by one (not by a FID).
    public var token: String? {
        if case .token(let token) = address { return token }
        return nil
    }
}
