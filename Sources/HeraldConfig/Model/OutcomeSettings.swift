import HeraldCore

/// The `outcomes:` section: which outcome statuses are published to the
/// results exchange, and when invalid-token answers are held back.
public struct OutcomeSettings: Sendable, Equatable, Decodable {
    /// Every status name, in the outcome schema's order.
    public static let allStatuses = Outcome.Status.allCases.map(\.rawValue)
    /// Published when the section is absent: what upstream must act on.
    public static let defaultStatuses = ["invalid_token", "failed", "rejected"]

    public var publish: [String]
    public var invalidationGuard: InvalidationGuardSettings

    public init(
        publish: [String] = OutcomeSettings.defaultStatuses,
        invalidationGuard: InvalidationGuardSettings = InvalidationGuardSettings()
    ) {
        self.publish = publish
        self.invalidationGuard = invalidationGuard
    }

    enum CodingKeys: String, CodingKey {
        case publish
        case invalidationGuard = "invalidation_guard"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        publish = try c.decodeIfPresent([String].self, forKey: .publish) ?? OutcomeSettings.defaultStatuses
        invalidationGuard =
            try c.decodeIfPresent(InvalidationGuardSettings.self, forKey: .invalidationGuard)
            ?? InvalidationGuardSettings()
    }
}

/// `outcomes.invalidation_guard`: per app and provider, when so many answers
/// of a sliding window say "bad token" that a misconfiguration (a production
/// app sent sandbox tokens, a wrong topic or project) is likelier than dead
/// tokens, those answers become `failed` instead of `invalid_token`.
public struct InvalidationGuardSettings: Sendable, Equatable, Decodable {
    public var enabled: Bool
    /// Fewer answers than this in the window never trip the guard.
    public var minAnswers: Int
    /// The share (over 0, at most 1) of suspect answers that trips it.
    public var share: Double
    /// How far back answers count.
    public var window: ConfigDuration

    public init(enabled: Bool = true, minAnswers: Int = 10, share: Double = 0.5, window: ConfigDuration = .seconds(60))
    {
        self.enabled = enabled
        self.minAnswers = minAnswers
        self.share = share
        self.window = window
    }

    enum CodingKeys: String, CodingKey {
        case enabled, share, window
        case minAnswers = "min_answers"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = InvalidationGuardSettings()
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? d.enabled
        minAnswers = try c.decodeIfPresent(Int.self, forKey: .minAnswers) ?? d.minAnswers
        share = try c.decodeIfPresent(Double.self, forKey: .share) ?? d.share
        window = try c.decodeIfPresent(ConfigDuration.self, forKey: .window) ?? d.window
    }
}
