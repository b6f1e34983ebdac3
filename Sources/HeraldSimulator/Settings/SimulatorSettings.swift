import HeraldConfig

/// `herald simulate --config sim.yaml`: everything the simulator can be told,
/// in YAML. Command-line flags override or add to it.
///
/// ```yaml
/// listen: 127.0.0.1:2197
/// record: notifications.jsonl
/// tls: {directory: .herald/dev}          # or certificate + key; client_ca for certificate auth
/// apns:
///   keys: [{key_file: .herald/dev/apns-AuthKey.p8, key_id: HERALDKEY1, team_id: HERALDTEAM}]
///   topics: [com.example.chat]
///   dead_tokens: [{token: "ab12...", since: "2026-11-30T10:00:00Z"}]
///   token_update_interval: 20m
///   environment: production                 # sandbox_tokens are then answered BadDeviceToken
///   sandbox_tokens: ["5e5e..."]
///   per_token_limit: {requests: 5, per: 1s}
/// fcm:
///   service_accounts: [.herald/dev/fcm-service-account.json]   # assertions signed by these keys are accepted
///   projects: [herald-dev]                                      # default: the accounts' project_id
///   dead_tokens: ["fcm-token-of-an-uninstalled-app"]                # 404 UNREGISTERED
///   token_errors: {"fcm-token-of-another-project": SENDER_ID_MISMATCH}   # any FcmError code
///   probe_topic: herald-check                                          # messages to it are probes
///   quota: {requests: 600000, per: 1m}                                 # each project's; over it 429 QUOTA_EXCEEDED
/// webpush:
///   subscriptions: 2                       # issued at start, printed one JSON object per line
/// faults: {error_rate: 0.01, error_status: 503, reset_rate: 0.01, services: [apns, fcm], latency: 20ms, goaway_after_streams: 1000}
/// ```
public struct SimulatorSettings: Sendable, Equatable, Decodable {
    public var listen: String?
    public var record: String?
    public var tls: TLS?
    public var apns: APNs?
    public var fcm: FCM?
    public var webpush: WebPush?
    public var faults: SimulatorFaults?

    public init(listen: String? = nil, record: String? = nil, tls: TLS? = nil, apns: APNs? = nil, fcm: FCM? = nil,
                webpush: WebPush? = nil, faults: SimulatorFaults? = nil) {
        self.listen = listen
        self.record = record
        self.tls = tls
        self.apns = apns
        self.fcm = fcm
        self.webpush = webpush
        self.faults = faults
    }

    /// The `fcm:` section: the Google OAuth endpoint (`/token`) and `messages:send`.
    public struct FCM: Sendable, Equatable, Decodable {
        /// Service-account key files (JSON); the simulator accepts assertions their keys sign.
        public var serviceAccounts: [String]
        /// Projects `messages:send` serves; empty means the accounts' `project_id`s.
        public var projects: [String]
        /// Registration tokens answered 404 UNREGISTERED (`token_errors` with UNREGISTERED, spelt short).
        public var deadTokens: [String]
        /// Registration tokens answered with an FcmError code; a token also in `dead_tokens` gets its code here.
        public var tokenErrors: [String: FCMSimulatedErrorCode]
        /// The topic whose messages are probes (default `herald-check`, where `herald check --online` sends).
        public var probeTopic: String?
        /// Each project's send quota, `requests` messages `per` fixed window
        /// (FCM's default: `{requests: 600000, per: 1m}`); a project over it is
        /// answered 429 QUOTA_EXCEEDED until its window ends. None when nil.
        public var quota: SimulatorFaults.RateLimit?

        public init(
            serviceAccounts: [String] = [], projects: [String] = [], deadTokens: [String] = [],
            tokenErrors: [String: FCMSimulatedErrorCode] = [:], probeTopic: String? = nil, quota: SimulatorFaults.RateLimit? = nil
        ) {
            self.serviceAccounts = serviceAccounts
            self.projects = projects
            self.deadTokens = deadTokens
            self.tokenErrors = tokenErrors
            self.probeTopic = probeTopic
            self.quota = quota
        }

        enum CodingKeys: String, CodingKey {
            case projects, quota
            case serviceAccounts = "service_accounts"
            case deadTokens = "dead_tokens"
            case tokenErrors = "token_errors"
            case probeTopic = "probe_topic"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            serviceAccounts = try c.decodeIfPresent([String].self, forKey: .serviceAccounts) ?? []
            projects = try c.decodeIfPresent([String].self, forKey: .projects) ?? []
            deadTokens = try c.decodeIfPresent([String].self, forKey: .deadTokens) ?? []
            tokenErrors = try c.decodeIfPresent([String: FCMSimulatedErrorCode].self, forKey: .tokenErrors) ?? [:]
            probeTopic = try c.decodeIfPresent(String.self, forKey: .probeTopic)
            quota = try c.decodeIfPresent(SimulatorFaults.RateLimit.self, forKey: .quota)
        }

        /// Every token's error: `dead_tokens` as UNREGISTERED, then `token_errors`.
        public var allTokenErrors: [String: FCMSimulatedErrorCode] {
            var errors = Dictionary(deadTokens.map { ($0, FCMSimulatedErrorCode.unregistered) }, uniquingKeysWith: { first, _ in first })
            errors.merge(tokenErrors) { _, explicit in explicit }
            return errors
        }
    }

    /// The server's TLS identity: given files, or a directory where one is generated (or reused).
    public struct TLS: Sendable, Equatable, Decodable {
        public var certificate: String?
        public var key: String?
        public var directory: String?
        /// Client certificates chaining to this CA are accepted (APNs certificate auth).
        public var clientCA: String?

        public init(certificate: String? = nil, key: String? = nil, directory: String? = nil, clientCA: String? = nil) {
            self.certificate = certificate
            self.key = key
            self.directory = directory
            self.clientCA = clientCA
        }

        enum CodingKeys: String, CodingKey {
            case certificate, key, directory
            case clientCA = "client_ca"
        }
    }

    /// The `apns:` section.
    public struct APNs: Sendable, Equatable, Decodable {
        public var keys: [Key]
        public var topics: [String]
        public var deadTokens: [DeadToken]
        public var tokenUpdateInterval: ConfigDuration?
        public var perTokenLimit: SimulatorFaults.RateLimit?
        /// Which APNs environment the simulator plays: `production` (default) or `sandbox`.
        public var environment: String?
        /// Tokens that exist only in the sandbox: a simulator playing production answers them 400 BadDeviceToken.
        public var sandboxTokens: [String]
        /// Tokens that exist only in production: a simulator playing the sandbox answers them 400 BadDeviceToken.
        public var productionTokens: [String]

        public init(
            keys: [Key] = [], topics: [String] = [], deadTokens: [DeadToken] = [], tokenUpdateInterval: ConfigDuration? = nil,
            perTokenLimit: SimulatorFaults.RateLimit? = nil, environment: String? = nil, sandboxTokens: [String] = [],
            productionTokens: [String] = []
        ) {
            self.keys = keys
            self.topics = topics
            self.deadTokens = deadTokens
            self.tokenUpdateInterval = tokenUpdateInterval
            self.perTokenLimit = perTokenLimit
            self.environment = environment
            self.sandboxTokens = sandboxTokens
            self.productionTokens = productionTokens
        }

        enum CodingKeys: String, CodingKey {
            case keys, topics, environment
            case deadTokens = "dead_tokens"
            case tokenUpdateInterval = "token_update_interval"
            case perTokenLimit = "per_token_limit"
            case sandboxTokens = "sandbox_tokens"
            case productionTokens = "production_tokens"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            keys = try c.decodeIfPresent([Key].self, forKey: .keys) ?? []
            topics = try c.decodeIfPresent([String].self, forKey: .topics) ?? []
            deadTokens = try c.decodeIfPresent([DeadToken].self, forKey: .deadTokens) ?? []
            tokenUpdateInterval = try c.decodeIfPresent(ConfigDuration.self, forKey: .tokenUpdateInterval)
            perTokenLimit = try c.decodeIfPresent(SimulatorFaults.RateLimit.self, forKey: .perTokenLimit)
            environment = try c.decodeIfPresent(String.self, forKey: .environment)
            sandboxTokens = try c.decodeIfPresent([String].self, forKey: .sandboxTokens) ?? []
            productionTokens = try c.decodeIfPresent([String].self, forKey: .productionTokens) ?? []
        }
    }

    /// A key provider tokens are verified with: a `.p8` or a public key PEM.
    public struct Key: Sendable, Equatable, Decodable {
        public var keyFile: String
        public var keyID: String
        public var teamID: String

        public init(keyFile: String, keyID: String, teamID: String) {
            self.keyFile = keyFile
            self.keyID = keyID
            self.teamID = teamID
        }

        enum CodingKeys: String, CodingKey {
            case keyFile = "key_file"
            case keyID = "key_id"
            case teamID = "team_id"
        }
    }

    /// A token answered 410 Unregistered: a bare string, or `{token, since}`
    /// (`since` RFC 3339; default: when the simulator started).
    public struct DeadToken: Sendable, Equatable, Decodable {
        public var token: String
        public var since: String?

        public init(token: String, since: String? = nil) {
            self.token = token
            self.since = since
        }

        enum CodingKeys: String, CodingKey { case token, since }

        public init(from decoder: any Decoder) throws {
            if let token = try? decoder.singleValueContainer().decode(String.self) {
                self.init(token: token)
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(token: try c.decode(String.self, forKey: .token), since: try c.decodeIfPresent(String.self, forKey: .since))
        }
    }
}
