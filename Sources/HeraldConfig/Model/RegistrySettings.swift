/// The `registry:` section: where the device registry (devices registered on
/// channels, docs/registry.md) is stored. Without it Herald has no registry
/// and channel targets are refused.
public struct RegistrySettings: Sendable, Equatable, Decodable {
    /// The database behind the registry.
    public enum Backend: String, Sendable, Decodable, CaseIterable {
        /// An SQLite file (WAL mode): one instance, development.
        case sqlite
        /// A PostgreSQL server: the backend several instances share.
        case postgres
    }

    public var backend: Backend
    /// `sqlite`: the database file, relative to the config file's directory.
    public var path: String?
    /// `postgres`: `postgres://user:password@host:port/database` (`${VAR}` for the password).
    public var url: String?
    /// `postgres`: connections per instance, 1 to 64.
    public var pool: Int?
    /// The most registrations (a device on a channel) one app may hold over
    /// all its channels (`max_registrations_per_app`), 1 to ``maxLimit``.
    public var maxRegistrationsPerApp: Int
    /// The most devices one channel of one app may hold (`max_devices_per_channel`), 1 to ``maxLimit``.
    public var maxDevicesPerChannel: Int
    /// `expire_after`: a device not registered again for this long is
    /// retired (taken off every channel, with a `registry_expired` result);
    /// nil, the default: devices stay until unregistered or found dead.
    public var expireAfter: ConfigDuration?
    /// The key the registry's secrets (Web Push `auth`) are encrypted at rest
    /// with: base64 of 32 bytes, usually `${VAR}` (`encryption_key`).
    public var encryptionKey: String?
    /// The same key in a file: 32 bytes, or their base64 (`encryption_key_file`),
    /// relative to the config file's directory.
    public var encryptionKeyFile: String?

    public static let defaultPool = 4
    /// Ten million rows: a few million devices on a few channels each.
    public static let defaultMaxRegistrationsPerApp = 10_000_000
    public static let defaultMaxDevicesPerChannel = 1_000_000
    /// The largest value either limit takes.
    public static let maxLimit = 1_000_000_000
    /// The shortest `expire_after`: a second (tests); a real one is months (`270d`).
    public static let minExpireAfter = ConfigDuration.seconds(1)

    enum CodingKeys: String, CodingKey {
        case backend, path, url, pool
        case maxRegistrationsPerApp = "max_registrations_per_app"
        case maxDevicesPerChannel = "max_devices_per_channel"
        case expireAfter = "expire_after"
        case encryptionKey = "encryption_key"
        case encryptionKeyFile = "encryption_key_file"
    }

    public init(backend: Backend, path: String? = nil, url: String? = nil, pool: Int? = nil) {
        self.backend = backend
        self.path = path
        self.url = url
        self.pool = pool
        maxRegistrationsPerApp = Self.defaultMaxRegistrationsPerApp
        maxDevicesPerChannel = Self.defaultMaxDevicesPerChannel
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        backend = try c.decodeIfPresent(Backend.self, forKey: .backend) ?? .sqlite
        path = try c.decodeIfPresent(String.self, forKey: .path)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        pool = try c.decodeIfPresent(Int.self, forKey: .pool)
        maxRegistrationsPerApp =
            try c.decodeIfPresent(Int.self, forKey: .maxRegistrationsPerApp) ?? Self.defaultMaxRegistrationsPerApp
        maxDevicesPerChannel =
            try c.decodeIfPresent(Int.self, forKey: .maxDevicesPerChannel) ?? Self.defaultMaxDevicesPerChannel
        expireAfter = try c.decodeIfPresent(ConfigDuration.self, forKey: .expireAfter)
        encryptionKey = try c.decodeIfPresent(String.self, forKey: .encryptionKey)
        encryptionKeyFile = try c.decodeIfPresent(String.self, forKey: .encryptionKeyFile)
    }

    /// The encryption key's size in bytes (AES-256).
    public static let encryptionKeyBytes = 32
}
