/// One recipient of an event: a provider and exactly one address on it.
///
/// An event fans out to its targets; each target gets exactly one outcome.
/// A target has exactly one address, so "a token and a topic at once" or
/// "no address" cannot be represented.
public struct Target: Sendable, Hashable {
    /// Where on the provider the notification goes: a kind of address and its value.
    public struct Address: Sendable, Hashable {
        public let kind: Kind
        /// The token, FID, topic name, condition or endpoint.
        public let value: String

        public init(_ kind: Kind, _ value: String) {
            self.kind = kind
            self.value = value
        }

        /// A kind of address, by the field that names it in events and
        /// outcomes. Providers declare the kinds their targets have
        /// (``ProviderTargetRules/addressKinds``); the ones APNs and FCM share
        /// are here.
        public struct Kind: Sendable, Hashable {
            /// The field name in events, outcomes and registrations: `token`.
            public let field: String
            /// Whether an address of this kind names one device (a token, a
            /// FID, a browser's subscription) rather than a topic or
            /// condition: the answers that say "this device is gone" are
            /// about it, `exclude_tokens` may list it, and logs mask it.
            public let isDevice: Bool

            public init(field: String, isDevice: Bool) {
                self.field = field
                self.isDevice = isDevice
            }

            /// A device token: APNs' (hex) or an FCM registration token.
            public static let token = Kind(field: "token", isDevice: true)
            /// A device by its Firebase installation ID, FCM's `message.fid`.
            public static let fid = Kind(field: "fid", isDevice: true)
            /// An FCM topic name, without the `/topics/` prefix.
            public static let topic = Kind(field: "topic", isDevice: false)
            /// An FCM condition such as `'news' in topics && 'fr' in topics`.
            public static let condition = Kind(field: "condition", isDevice: false)
        }

        public static func token(_ value: String) -> Address { Address(.token, value) }
        public static func fid(_ value: String) -> Address { Address(.fid, value) }
        public static func topic(_ value: String) -> Address { Address(.topic, value) }
        public static func condition(_ value: String) -> Address { Address(.condition, value) }

        /// The field name of this kind of address in events and outcomes.
        public var field: String { kind.field }

        /// Whether the address names one device: see ``Kind/isDevice``.
        public var isDevice: Bool { kind.isDevice }
    }

    public var provider: Provider
    public var address: Address
    /// The registry channel this device was reached through (a channel
    /// target's expansion), echoed in its outcome and kept in its retry.
    public var channel: String?
    /// The attributes the device registered with (`timezone`, `locale`,
    /// `attributes`), when a channel reached it and the event asked for them
    /// (``Event/includeDeviceAttributes``): echoed in its outcome as `device`
    /// and kept in its retry. Opaque here: the registry writes and bounds it.
    public var deviceAttributes: JSONObject?
    /// What the device carries for its provider beyond its address (an APNs
    /// device's own environment and topic, a Web Push subscription's keys),
    /// of the provider's own type; empty for most targets.
    public var extras: ProviderExtras

    /// A target as given. ``Event/decode(_:fallbackID:providers:limits:)`` validates
    /// what events carry (no APNs topics, hex APNs tokens); code building
    /// targets itself is trusted to do the same.
    public init(
        provider: Provider, address: Address, channel: String? = nil,
        extras: ProviderExtras = ProviderExtras()
    ) {
        self.provider = provider
        self.address = address
        self.channel = channel
        self.extras = extras
    }

    /// The largest ``deviceAttributes`` a target may carry, serialized: room
    /// for the registry's bounds (32 attributes of 64-byte keys and 256-byte
    /// values, a locale and a time zone).
    public static let maxDeviceAttributesBytes = 16 << 10

    /// The device token, if the target is addressed by one (not by a FID).
    public var token: String? {
        address.kind == .token ? address.value : nil
    }
}
