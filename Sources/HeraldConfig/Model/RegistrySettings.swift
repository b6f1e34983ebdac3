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

    public static let defaultPool = 4

    enum CodingKeys: String, CodingKey { case backend, path, url, pool }

    public init(backend: Backend, path: String? = nil, url: String? = nil, pool: Int? = nil) {
        self.backend = backend
        self.path = path
        self.url = url
        self.pool = pool
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        backend = try c.decodeIfPresent(Backend.self, forKey: .backend) ?? .sqlite
        path = try c.decodeIfPresent(String.self, forKey: .path)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        pool = try c.decodeIfPresent(Int.self, forKey: .pool)
    }
}
