/// How the simulated FCM HTTP v1 service behaves: which projects exist,
/// how individual devices are answered, the probe topic, quota, injected
/// faults and latency.
///
/// `tokenErrors` holds registration tokens and FIDs alike: a target's token
/// or FID is looked up in it as given.
public struct FCMSimulatorSettings: Sendable {
    /// A send quota: at most `messages` per `window` for each project, in
    /// fixed windows a project's first send starts (FCM's quota is per
    /// project: one project over it leaves the others' sends alone).
    public struct Quota: Sendable, Equatable {
        public var messages: Int
        public var window: Duration

        public init(messages: Int, window: Duration = .seconds(60)) {
            self.messages = messages
            self.window = window
        }
    }

    /// The topic `herald check --online` sends its `validate_only` probe to.
    public static let defaultProbeTopic = "herald-check"

    /// Projects that exist; any other answers 403 PERMISSION_DENIED, as Google
    /// answers a project the account may not send to (no FcmError detail).
    public var projectIDs: Set<String>
    /// Registration tokens (or FIDs) FCM answers with an error instead of
    /// delivering: UNREGISTERED for an uninstalled app, SENDER_ID_MISMATCH for
    /// another project's, THIRD_PARTY_AUTH_ERROR for an iOS app whose APNs key
    /// in Firebase is wrong, and so on (`FCMSimulatedErrorCode`).
    public var tokenErrors: [String: FCMSimulatedErrorCode]
    /// Messages to this topic are probes: recorded as probes (a
    /// `validate_only` one too, which is otherwise not recorded), never as deliveries.
    public var probeTopic: String
    /// Each project's send quota; a project over it is answered 429
    /// QUOTA_EXCEEDED with `Retry-After` (seconds to the end of that
    /// project's window), the other projects' sends go on.
    public var quota: Quota?
    /// Share of accepted-looking requests answered 500 INTERNAL (0...1).
    public var internalErrorRate: Double
    /// Share answered 503 UNAVAILABLE (0...1).
    public var unavailableRate: Double
    /// The `Retry-After` (seconds) of the 503 UNAVAILABLE and 429 QUOTA_EXCEEDED
    /// answers the simulator makes up (`unavailableRate`, `tokenErrors`, injected
    /// faults); nil sends none. The quota's own 429 says when its window ends.
    public var retryAfter: Int?
    /// Delay before every answer.
    public var latency: Duration?

    public init(
        projectIDs: Set<String> = ["herald-dev"], tokenErrors: [String: FCMSimulatedErrorCode] = [:],
        probeTopic: String = FCMSimulatorSettings.defaultProbeTopic, quota: Quota? = nil, internalErrorRate: Double = 0,
        unavailableRate: Double = 0, retryAfter: Int? = 10, latency: Duration? = nil
    ) {
        self.projectIDs = projectIDs
        self.tokenErrors = tokenErrors
        self.probeTopic = probeTopic
        self.quota = quota
        self.internalErrorRate = internalErrorRate
        self.unavailableRate = unavailableRate
        self.retryAfter = retryAfter
        self.latency = latency
    }
}
