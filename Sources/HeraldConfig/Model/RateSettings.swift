/// A route's `rate:`: how many of the targets it matches one instance sends
/// per second (or minute), and what happens to those over it.
///
/// `rate: {per_second: 50, burst: 10, on_exceed: delay}`. Exactly one of
/// `per_second` and `per_minute`; `burst` (default 1: evenly spaced) is how
/// many may go at once after a quiet spell.
public struct RateSettings: Sendable, Equatable, Decodable {
    /// What happens to a target over the rate.
    public enum OnExceed: String, Sendable, Equatable, CaseIterable {
        /// Wait for its turn: the event stays unacknowledged meanwhile (the default).
        case delay
        /// Not sent: a `dropped` outcome saying so.
        case drop
    }

    public var perSecond: Double?
    public var perMinute: Double?
    public var burst: Int
    public var onExceed: OnExceed

    enum CodingKeys: String, CodingKey {
        case burst
        case perSecond = "per_second"
        case perMinute = "per_minute"
        case onExceed = "on_exceed"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        perSecond = try c.decodeIfPresent(Double.self, forKey: .perSecond)
        perMinute = try c.decodeIfPresent(Double.self, forKey: .perMinute)
        burst = try c.decodeIfPresent(Int.self, forKey: .burst) ?? 1
        guard let word = try c.decodeIfPresent(String.self, forKey: .onExceed) else {
            onExceed = .delay
            return
        }
        guard let choice = OnExceed(rawValue: word) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: c.codingPath + [CodingKeys.onExceed],
                    debugDescription: "unknown on_exceed '\(word.truncatedForMessage)' (expected delay or drop)"))
        }
        onExceed = choice
    }

    /// Targets per second, whichever way it was written (nil when neither or both are given: a validation error).
    public var ratePerSecond: Double? {
        switch (perSecond, perMinute) {
        case (let second?, nil): second
        case (nil, let minute?): minute / 60
        default: nil
        }
    }

    /// `50/s`, `600/min`: the rate as written, for outcome reasons and logs.
    public var spelled: String {
        func number(_ value: Double) -> String { Int(exactly: value).map(String.init) ?? String(value) }
        if let perSecond { return "\(number(perSecond))/s" }
        return "\(number(perMinute ?? 0))/min"
    }
}
