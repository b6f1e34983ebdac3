import HeraldAPNs
import HeraldCore
import HeraldCrypto
import HeraldProviderKit
import HeraldSystem

extension SimulatorSettings {
    /// The `apns:` section: how the simulated APNs verifies provider tokens
    /// and answers device tokens.
    ///
    /// ```yaml
    /// apns:
    ///   keys: [{key_file: .herald/dev/apns-AuthKey.p8, key_id: HERALDKEY1, team_id: HERALDTEAM}]
    ///   topics: [com.example.chat]
    ///   dead_tokens: [{token: "ab12...", since: "2026-11-30T10:00:00Z"}]
    ///   token_update_interval: 20m
    ///   environment: production                 # sandbox_tokens are then answered BadDeviceToken
    ///   sandbox_tokens: ["5e5e..."]
    ///   per_token_limit: {requests: 5, per: 1s}
    /// ```
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
            keys: [Key] = [], topics: [String] = [], deadTokens: [DeadToken] = [],
            tokenUpdateInterval: ConfigDuration? = nil,
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
                self.init(
                    token: try c.decode(String.self, forKey: .token),
                    since: try c.decodeIfPresent(String.self, forKey: .since))
            }
        }

        /// The APNs service's configuration: keys loaded (public keys or `.p8`s),
        /// dead tokens dated (`since`, else `now`).
        public func configuration(now: Timestamp) throws(SimulatorSetupError) -> APNsSimulatorConfiguration {
            var loaded: [APNsSimulatorKey] = []
            for key in keys {
                let file: BoundedFile
                do { file = try BoundedFile(path: key.keyFile, limit: .key) } catch {
                    throw SimulatorSetupError("apns.keys: key_file \(error)")
                }
                let pem = String(decoding: file.bytes, as: UTF8.self)
                do {
                    loaded.append(
                        APNsSimulatorKey(keyID: key.keyID, teamID: key.teamID, publicKey: try PublicKey(pem: pem)))
                } catch {
                    throw SimulatorSetupError("apns.keys: key_file \(key.keyFile): \(error)")
                }
            }
            var dead: [String: Timestamp] = [:]
            for token in deadTokens {
                guard let since = token.since else {
                    dead[token.token] = now
                    continue
                }
                guard let timestamp = Timestamp(rfc3339: since) else {
                    throw SimulatorSetupError("apns.dead_tokens: since: expected an RFC 3339 time, found \"\(since)\"")
                }
                dead[token.token] = timestamp
            }
            let playing: APNsEnvironment
            switch environment {
            case nil: playing = .production
            case let name?:
                guard let known = APNsEnvironment(rawValue: name) else {
                    throw SimulatorSetupError("apns.environment: expected production or sandbox, found \"\(name)\"")
                }
                playing = known
            }
            var environments: [String: APNsEnvironment] = [:]
            for token in sandboxTokens { environments[token] = .sandbox }
            for token in productionTokens { environments[token] = .production }
            return APNsSimulatorConfiguration(
                keys: loaded, bundleIDs: topics, deadTokens: dead,
                minimumTokenUpdateInterval: tokenUpdateInterval?.duration ?? .zero,
                perTokenLimit: perTokenLimit?.requests, perTokenWindow: perTokenLimit?.per.duration ?? .seconds(1),
                environment: playing, tokenEnvironments: environments)
        }
    }
}
