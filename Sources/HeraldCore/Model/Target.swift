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
        /// An FCM topic name, without the `/topics/` prefix (FCM only).
        case topic(String)
        /// An FCM condition such as `'news' in topics && 'fr' in topics` (FCM only).
        case condition(String)

        /// The field name of this kind of address in events and outcomes.
        public var field: String {
            switch self {
            case .token: "token"
            case .topic: "topic"
            case .condition: "condition"
            }
        }

        /// The token, topic name or condition.
        public var value: String {
            switch self {
            case .token(let value), .topic(let value), .condition(let value): value
            }
        }
    }

    public var provider: Provider
    public var address: Address

    /// A target as given. ``Event/decode(_:fallbackID:limits:)`` validates
    /// what events carry (no APNs topics, hex APNs tokens); code building
    /// targets itself is trusted to do the same.
    public init(provider: Provider, address: Address) {
        self.provider = provider
        self.address = address
    }

    /// The device token, if the target is a device.
    public var token: String? {
        if case .token(let token) = address { return token }
        return nil
    }
}
