/// The rates a send rate or throttle may have, in sends per second: from one
/// send in about 11.6 days (0.000001/s) to a billion a second. Outside it a
/// rate is a mistake — a typo'd exponent — and its arithmetic overflows: the
/// wait for the next token at 1e-300/s is beyond any clock, the number of
/// tokens at 1e300/s beyond any integer.
///
/// `herald check` refuses a rate outside the bounds naming the key
/// (`ConfigValidator`, `ConfigChecks.checkThrottle`); `TokenBucket` clamps
/// into them all the same, so a rate that reached it some other way cannot
/// trap.
public enum RateBounds {
    /// The unit a rate is written in.
    public enum Unit: Sendable {
        case second, minute

        /// Seconds in one unit.
        public var seconds: Double {
            switch self {
            case .second: 1
            case .minute: 60
            }
        }

        /// The bounds in this unit, as messages and docs spell them.
        public var range: String {
            switch self {
            case .second: "0.000001 to 1000000000 per second"
            case .minute: "0.00006 to 60000000000 per minute"
            }
        }
    }

    /// The rates allowed, per second.
    public static let perSecond: ClosedRange<Double> = 1e-6...1e9

    /// Whether `rate`, written in `unit`, is within the bounds (NaN is not).
    public static func contains(_ rate: Double, in unit: Unit) -> Bool {
        perSecond.contains(rate / unit.seconds)
    }

    /// `rate` per second clamped into the bounds; NaN, 0 and below become the lowest rate.
    public static func clamped(_ rate: Double) -> Double {
        guard rate >= perSecond.lowerBound else { return perSecond.lowerBound }
        return min(rate, perSecond.upperBound)
    }

    /// What is wrong with `rate` written in `unit`, or nil when it is within bounds.
    public static func problem(_ rate: Double, in unit: Unit) -> String? {
        contains(rate, in: unit) ? nil : "expected a rate from \(unit.range), found \(rate)"
    }
}
