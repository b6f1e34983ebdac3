/// How the simulated FCM HTTP v1 service behaves: which projects exist,
/// which devices are dead, quota, injected faults and latency.
///
/// The device sets hold registration tokens and FIDs alike: a target's
/// token or FID is looked up in them as given.
public struct FCMSimulatorSettings: Sendable {
    /// A send quota: at most `messages` per `window` (fixed windows).
    public struct Quota: Sendable, Equatable {
        public var messages: Int
        public var window: Duration

        public init(messages: Int, window: Duration = .seconds(60)) {
            self.messages = messages
            self.window = window
        }
    }

    /// Projects that exist; any other answers 403 PERMISSION_DENIED, as Google
    /// answers a project the account may not send to (no FcmError detail).
    public var projectIDs: Set<String>
    /// Tokens (or FIDs) of uninstalled apps: 404 UNREGISTERED.
    public var deadTokens: Set<String>
    /// Tokens (or FIDs) of another project's app: 403 SENDER_ID_MISMATCH.
    public var foreignTokens: Set<String>
    /// Tokens (or FIDs) of iOS apps whose APNs key in Firebase is wrong: 401 THIRD_PARTY_AUTH_ERROR.
    public var apnsAuthFailureTokens: Set<String>
    /// Over it: 429 QUOTA_EXCEEDED with `Retry-After` (seconds to the window's end).
    public var quota: Quota?
    /// Share of accepted-looking requests answered 500 INTERNAL (0...1).
    public var internalErrorRate: Double
    /// Share answered 503 UNAVAILABLE (0...1), with `Retry-After: unavailableRetryAfter`.
    public var unavailableRate: Double
    public var unavailableRetryAfter: Int?
    /// Delay before every answer.
    public var latency: Duration?

    public init(
        projectIDs: Set<String> = ["herald-dev"], deadTokens: Set<String> = [], foreignTokens: Set<String> = [],
        apnsAuthFailureTokens: Set<String> = [], quota: Quota? = nil, internalErrorRate: Double = 0,
        unavailableRate: Double = 0, unavailableRetryAfter: Int? = 10, latency: Duration? = nil
    ) {
        self.projectIDs = projectIDs
        self.deadTokens = deadTokens
        self.foreignTokens = foreignTokens
        self.apnsAuthFailureTokens = apnsAuthFailureTokens
        self.quota = quota
        self.internalErrorRate = internalErrorRate
        self.unavailableRate = unavailableRate
        self.unavailableRetryAfter = unavailableRetryAfter
        self.latency = latency
    }
}
