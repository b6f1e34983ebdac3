import HeraldCore

/// Which of Apple's two push services a device token belongs to: a token
/// from a development build exists only in the sandbox, one from an App
/// Store, TestFlight or ad-hoc build only in production. Sent to the other
/// environment, a good token is answered `BadDeviceToken`.
public enum APNsEnvironment: String, Sendable, Hashable, CaseIterable, Decodable {
    case production
    case sandbox

    /// The other environment.
    public var other: APNsEnvironment { self == .production ? .sandbox : .production }

    /// `production or sandbox`, for messages.
    public static let expected = "production or sandbox"
}

/// What one APNs device needs other than its app's settings: the
/// environment its token belongs to and the topic (bundle ID) it was issued
/// for. A registration's overrides travel with the device's target, so a
/// retry of that device is sent as its first attempt was.
public struct APNsDeviceOverrides: Sendable, Hashable {
    /// The environment the token belongs to, when not the app's.
    public var environment: APNsEnvironment?
    /// The bundle ID to send with instead of the app's; push types add their suffix (`.voip`) to it.
    public var topic: String?

    public init(environment: APNsEnvironment? = nil, topic: String? = nil) {
        self.environment = environment
        self.topic = topic
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { environment == nil && topic == nil }

    /// The event-target field names: `environment`, `apns_topic`.
    public static let environmentField = "environment"
    public static let topicField = "apns_topic"

    /// The longest topic accepted, in bytes (bundle IDs are far shorter).
    public static let maxTopicBytes = 255

    /// Why `topic` cannot be an APNs topic, or nil: 1 to ``maxTopicBytes``
    /// bytes of printable ASCII without spaces, as bundle IDs are.
    public static func problem(withTopic topic: String) -> String? {
        if topic.isEmpty { return "is empty" }
        if topic.utf8.count > maxTopicBytes {
            return "is \(topic.utf8.count) bytes, over the limit of \(maxTopicBytes)"
        }
        if !topic.everyByte({ $0 > 0x20 && $0 < 0x7F }) {
            return "has a character other than printable ASCII (a bundle ID such as com.example.app)"
        }
        return nil
    }
}

extension Target {
    /// An APNs device's own environment and topic, carried in ``Target/extras``;
    /// empty for a target without them. Setting empty overrides leaves no extras.
    public var apns: APNsDeviceOverrides {
        get { extras.as(APNsDeviceOverrides.self) ?? APNsDeviceOverrides() }
        set { extras = newValue.isEmpty ? ProviderExtras() : ProviderExtras(newValue) }
    }

    /// An APNs device's target with its own environment and topic.
    public init(provider: Provider, address: Address, channel: String? = nil, apns: APNsDeviceOverrides) {
        self.init(provider: provider, address: address, channel: channel)
        self.apns = apns
    }
}
