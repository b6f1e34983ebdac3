import HeraldCore
import HeraldProviderKit

/// An app's `webpush:` section: the application server's VAPID key and
/// contact, and how its messages are sent.
///
/// - Important: Exactly one key source: `private_key_file`, `private_key_pem`
///   (a P-256 key in PEM) or `private_key` (the 32-byte key in URL-safe
///   base64, as Web Push libraries print it).
public struct WebPushSettings: ProviderSettings {
    public static let provider = Provider.webpush

    /// The VAPID key the browsers subscribed with (`applicationServerKey`), and a contact.
    public struct VAPID: Sendable, Equatable, Decodable {
        public var privateKeyFile: String?
        public var privateKeyPEM: String?
        public var privateKey: String?
        /// `mailto:…` or an `https:` URL: how a push service reaches the sender.
        public var subject: String

        enum CodingKeys: String, CodingKey {
            case subject
            case privateKeyFile = "private_key_file"
            case privateKeyPEM = "private_key_pem"
            case privateKey = "private_key"
        }

        public init(
            privateKeyFile: String? = nil, privateKeyPEM: String? = nil, privateKey: String? = nil, subject: String
        ) {
            self.privateKeyFile = privateKeyFile
            self.privateKeyPEM = privateKeyPEM
            self.privateKey = privateKey
            self.subject = subject
        }
    }

    public var vapid: VAPID
    /// An extra trust root for push services (the simulator's CA); the system store stays trusted.
    public var caFile: String?
    /// Connections to one push service origin at most (`auto`: 4; each
    /// HTTP/1.1 connection carries one message at a time).
    public var connections: ConnectionsSetting
    public var timeout: ConfigDuration
    /// The `TTL` of messages whose event has no `ttl` or `expires_at` (`default_ttl`, 672h: four weeks).
    public var defaultTTL: ConfigDuration
    /// The push service hosts a subscription's endpoint may name
    /// (`allowed_hosts`): each entry allows itself and the names below it,
    /// `*` any host. Nil: `WebPushProviderConfiguration.browserPushServices`.
    public var allowedHosts: [String]?
    /// `unsafe_allow_internal_addresses`: endpoints may reach loopback,
    /// private, link-local and the other special-purpose addresses. Off by
    /// default; on only for a simulator or tests on this host.
    public var unsafeAllowInternalAddresses: Bool

    enum CodingKeys: String, CodingKey {
        case vapid, connections, timeout
        case caFile = "ca_file"
        case defaultTTL = "default_ttl"
        case allowedHosts = "allowed_hosts"
        case unsafeAllowInternalAddresses = "unsafe_allow_internal_addresses"
    }

    public init(
        vapid: VAPID, caFile: String? = nil, connections: ConnectionsSetting = .auto,
        timeout: ConfigDuration = .seconds(10),
        defaultTTL: ConfigDuration = .seconds(28 * 24 * 3600), allowedHosts: [String]? = nil,
        unsafeAllowInternalAddresses: Bool = false
    ) {
        self.allowedHosts = allowedHosts
        self.unsafeAllowInternalAddresses = unsafeAllowInternalAddresses
        self.vapid = vapid
        self.caFile = caFile
        self.connections = connections
        self.timeout = timeout
        self.defaultTTL = defaultTTL
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        vapid = try c.decode(VAPID.self, forKey: .vapid)
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        connections = try ConnectionsSetting.decode(c, .connections)
        timeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .timeout) ?? .seconds(10)
        defaultTTL = try c.decodeIfPresent(ConfigDuration.self, forKey: .defaultTTL) ?? .seconds(28 * 24 * 3600)
        allowedHosts = try c.decodeIfPresent([String].self, forKey: .allowedHosts)
        unsafeAllowInternalAddresses = try c.decodeIfPresent(Bool.self, forKey: .unsafeAllowInternalAddresses) ?? false
    }
}
