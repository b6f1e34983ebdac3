import HeraldCore
import HeraldSystem

extension SimulatorSettings {
    /// The `fcm:` section: the Google OAuth endpoint (`/token`) and `messages:send`.
    ///
    /// ```yaml
    /// fcm:
    ///   service_accounts: [.herald/dev/fcm-service-account.json]   # assertions signed by these keys are accepted
    ///   projects: [herald-dev]                                      # default: the accounts' project_id
    ///   dead_tokens: ["fcm-token-of-an-uninstalled-app"]                # 404 UNREGISTERED
    ///   token_errors: {"fcm-token-of-another-project": SENDER_ID_MISMATCH}   # any FcmError code
    ///   probe_topic: herald-check                                          # messages to it are probes
    ///   quota: {requests: 600000, per: 1m}                                 # each project's; over it 429 QUOTA_EXCEEDED
    /// ```
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
            tokenErrors: [String: FCMSimulatedErrorCode] = [:], probeTopic: String? = nil,
            quota: SimulatorFaults.RateLimit? = nil
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
            var errors = Dictionary(
                deadTokens.map { ($0, FCMSimulatedErrorCode.unregistered) }, uniquingKeysWith: { first, _ in first })
            errors.merge(tokenErrors) { _, explicit in explicit }
            return errors
        }

        /// The simulated Google OAuth endpoint and FCM `messages:send`, sharing one
        /// set of issued access tokens; nil when no service account is configured.
        public func fcmServices(recorder: NotificationRecorder) throws(SimulatorSetupError) -> (
            oauth: OAuthSimulatorService, fcm: FCMSimulatorService
        )? {
            guard !serviceAccounts.isEmpty else { return nil }
            var accounts: [SimulatedServiceAccount] = []
            for file in serviceAccounts {
                let contents: BoundedFile
                do { contents = try BoundedFile(path: file, limit: .key) } catch {
                    throw SimulatorSetupError("fcm.service_accounts: \(error)")
                }
                do {
                    accounts.append(
                        try SimulatedServiceAccount(serviceAccountJSON: String(decoding: contents.bytes, as: UTF8.self))
                    )
                } catch {
                    throw SimulatorSetupError("fcm.service_accounts: \(file): \(error)")
                }
            }
            let projectIDs = projects.isEmpty ? Set(accounts.compactMap(\.projectID)) : Set(projects)
            guard !projectIDs.isEmpty else {
                throw SimulatorSetupError("fcm: no projects, and the service accounts name no project_id")
            }
            let tokens = SimulatedAccessTokens()
            let oauth = OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: accounts), tokens: tokens)
            let messages = FCMSimulatorService(
                settings: FCMSimulatorSettings(
                    projectIDs: projectIDs, tokenErrors: allTokenErrors,
                    probeTopic: probeTopic ?? FCMSimulatorSettings.defaultProbeTopic,
                    quota: quota.map { FCMSimulatorSettings.Quota(messages: $0.requests, window: $0.per.duration) }),
                tokens: tokens, recorder: recorder)
            return (oauth, messages)
        }
    }
}
