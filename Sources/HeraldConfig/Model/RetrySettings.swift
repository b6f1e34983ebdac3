/// The `retry:` section: how often and after what delays a transient failure
/// (429, 5xx, timeout, connection loss) is retried through the delay queues.
public struct RetrySettings: Sendable, Equatable, Decodable {
    /// Deliveries in all, the first included; after the last → `failed` and dead-lettered.
    public var maxAttempts: Int
    /// Delay before retry 1, 2, ...; attempts past the list use the last delay.
    /// Each distinct delay is one delay queue (`herald.retry.30s`).
    public var delays: [ConfigDuration]

    public init(
        maxAttempts: Int = 5, delays: [ConfigDuration] = [.seconds(5), .seconds(30), .seconds(120), .seconds(600)]
    ) {
        self.maxAttempts = maxAttempts
        self.delays = delays
    }

    enum CodingKeys: String, CodingKey {
        case delays
        case maxAttempts = "max_attempts"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = RetrySettings()
        maxAttempts = try c.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? d.maxAttempts
        delays = try c.decodeIfPresent([ConfigDuration].self, forKey: .delays) ?? d.delays
    }

    /// The delay before delivery attempt `attempt + 1`, after attempt `attempt` (1-based) failed.
    public func delay(after attempt: Int) -> ConfigDuration {
        guard let last = delays.last else { return .seconds(5) }
        let index = attempt - 1
        return index >= 0 && index < delays.count ? delays[index] : last
    }
}
