import HeraldCore
import HeraldProviderKit

/// An app's `apns:` section: how Herald authenticates to Apple and where it connects.
///
/// - Important: Exactly one authentication mode: token auth (`key_file` or
///   `key_pem`, with `team_id` and `key_id`) or certificate auth
///   (`certificate_file` or `certificate_pem`, optionally
///   `certificate_password`). Validation reports several or none.
public struct APNsSettings: ProviderSettings {
    public static let provider = Provider.apns

    /// Which Apple host a provider talks to; a device token from a development
    /// build only works against sandbox.
    public typealias Environment = APNsEnvironment

    public var teamID: String?
    public var keyID: String?
    public var keyFile: String?
    public var keyPEM: String?
    public var certificateFile: String?
    /// The certificate and its key as PEM text (`certificate_pem`, typically
    /// `${ENV}`), instead of `certificate_file`: a secret, never logged.
    public var certificatePEM: String?
    public var certificatePassword: String?
    /// The app's bundle id; push types that need a suffix (`.voip`, ...) get it added per request.
    public var topic: String
    /// Further bundle IDs this app's events and registrations may name as a
    /// device's topic or in `apns.headers` (`allowed_topics`, default none):
    /// together with ``topic`` they make ``permittedTopics``.
    public var allowedTopics: [String]
    public var environment: Environment
    /// Overrides the host chosen by `environment` (the simulator, a proxy).
    public var endpoint: String?
    /// Overrides each environment's host: `endpoints: {production: URL, sandbox: URL}`.
    public var endpoints: Endpoints
    public var caFile: String?
    public var connections: ConnectionsSetting
    /// The HTTP/2 client implementation (`http_engine`, default nghttp2).
    public var httpEngine: HTTPEngineSetting
    public var timeout: ConfigDuration
    /// Connections beyond the first that carried no request this long are closed (`idle_timeout`).
    public var idleTimeout: ConfigDuration
    /// Notifications sent to Apple per second at most, by this instance (`max_per_second`).
    public var maxPerSecond: Double?

    enum CodingKeys: String, CodingKey {
        case topic, environment, endpoint, endpoints, connections, timeout
        case teamID = "team_id"
        case keyID = "key_id"
        case keyFile = "key_file"
        case keyPEM = "key_pem"
        case certificateFile = "certificate_file"
        case certificatePEM = "certificate_pem"
        case certificatePassword = "certificate_password"
        case caFile = "ca_file"
        case httpEngine = "http_engine"
        case idleTimeout = "idle_timeout"
        case maxPerSecond = "max_per_second"
        case allowedTopics = "allowed_topics"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        teamID = try c.decodeIfPresent(String.self, forKey: .teamID)
        keyID = try c.decodeIfPresent(String.self, forKey: .keyID)
        keyFile = try c.decodeIfPresent(String.self, forKey: .keyFile)
        keyPEM = try c.decodeIfPresent(String.self, forKey: .keyPEM)
        certificateFile = try c.decodeIfPresent(String.self, forKey: .certificateFile)
        certificatePEM = try c.decodeIfPresent(String.self, forKey: .certificatePEM)
        certificatePassword = try c.decodeIfPresent(String.self, forKey: .certificatePassword)
        topic = try c.decode(String.self, forKey: .topic)
        allowedTopics = try c.decodeIfPresent([String].self, forKey: .allowedTopics) ?? []
        environment = try c.decodeIfPresent(Environment.self, forKey: .environment) ?? .production
        endpoint = try c.decodeIfPresent(String.self, forKey: .endpoint)
        endpoints = try c.decodeIfPresent(Endpoints.self, forKey: .endpoints) ?? Endpoints()
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        connections = try ConnectionsSetting.decode(c, .connections)
        idleTimeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .idleTimeout) ?? .seconds(60)
        maxPerSecond = try c.decodeIfPresent(Double.self, forKey: .maxPerSecond)
        httpEngine = try HTTPEngineSetting.decode(c, .httpEngine)
        timeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .timeout) ?? .seconds(10)
    }

    /// How this app authenticates, once validation has established there is exactly one way.
    public enum Auth: Sendable, Equatable {
        case keyFile(path: String, teamID: String, keyID: String)
        case keyPEM(pem: String, teamID: String, keyID: String)
        case certificate(path: String, password: String?)
        case certificatePEM(pem: String, password: String?)
    }

    /// The authentication mode, or nil when the section gives none or several (a validation error).
    public var auth: Auth? {
        switch (keyFile, keyPEM, certificateFile, certificatePEM) {
        case (let path?, nil, nil, nil): .keyFile(path: path, teamID: teamID ?? "", keyID: keyID ?? "")
        case (nil, let pem?, nil, nil): .keyPEM(pem: pem, teamID: teamID ?? "", keyID: keyID ?? "")
        case (nil, nil, let path?, nil): .certificate(path: path, password: certificatePassword)
        case (nil, nil, nil, let pem?): .certificatePEM(pem: pem, password: certificatePassword)
        default: nil
        }
    }

    /// Where devices of each environment are sent, when not Apple's host:
    /// the simulator (one per environment), a proxy.
    public struct Endpoints: Sendable, Equatable, Decodable {
        public var production: String?
        public var sandbox: String?

        public init(production: String? = nil, sandbox: String? = nil) {
            self.production = production
            self.sandbox = sandbox
        }

        public subscript(environment: Environment) -> String? {
            switch environment {
            case .production: production
            case .sandbox: sandbox
            }
        }
    }

    /// Every `apns-topic` this app may send with: ``topic`` and each of
    /// ``allowedTopics``, each with every push type's suffix (`APNsTopic.allowed`).
    public var permittedTopics: Set<String> { APNsTopic.allowed(bundleIDs: [topic] + allowedTopics) }

    public var deviceTopics: Set<String>? { permittedTopics }

    /// A route's `collapse_id` longer than APNs takes.
    public static func routeOverrideProblem(field: String, value: String) -> String? {
        guard field == "collapse_id", value.utf8.count > APNsLimits.collapseIDBytes else { return nil }
        return "is \(value.utf8.count) bytes; APNs allows at most \(APNsLimits.collapseIDBytes)"
    }

    /// The base URL the app's own environment is sent to: its entry in
    /// `endpoints`, else `endpoint`, else Apple's host.
    public var baseURL: String { endpoints[environment] ?? endpoint ?? "https://\(environment.host)" }

    /// The base URL devices of `environment` are sent to; nil for the other
    /// environment when `endpoint` replaces Apple's host without an
    /// `endpoints` entry for it (Herald never sends past a configured
    /// simulator or proxy to Apple on its own).
    public func baseURL(for environment: Environment) -> String? {
        if environment == self.environment { return baseURL }
        if let configured = endpoints[environment] { return configured }
        return endpoint == nil ? "https://\(environment.host)" : nil
    }
}

extension APNsEnvironment {
    /// Apple's host for this environment (port 443; 2197 also works).
    public var host: String {
        switch self {
        case .production: "api.push.apple.com"
        case .sandbox: "api.sandbox.push.apple.com"
        }
    }
}
