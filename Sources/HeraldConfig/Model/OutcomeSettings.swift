import HeraldCore

/// The `outcomes:` section: which outcome statuses are published to the results exchange.
public struct OutcomeSettings: Sendable, Equatable, Decodable {
    /// Every status name, in DESIGN.md's order.
    public static let allStatuses = Outcome.Status.allCases.map(\.rawValue)
    /// Published when the section is absent: what upstream must act on.
    public static let defaultStatuses = ["invalid_token", "failed", "rejected"]

    public var publish: [String]

    public init(publish: [String] = OutcomeSettings.defaultStatuses) { self.publish = publish }

    enum CodingKeys: String, CodingKey { case publish }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        publish = try c.decodeIfPresent([String].self, forKey: .publish) ?? OutcomeSettings.defaultStatuses
    }
}
