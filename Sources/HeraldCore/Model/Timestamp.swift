import HeraldSystem

/// A point in time as seconds and nanoseconds since the Unix epoch (UTC).
///
/// Herald passes time in explicitly (an event is expired *at* a given now;
/// an outcome happened *at* a given time) instead of reading a clock inside
/// the model, so tests control time. This small type, rather than
/// Foundation's `Date`, keeps the core Foundation-free and carries exact
/// nanoseconds; it parses and formats RFC 3339 itself
/// (see `Timestamp+RFC3339.swift`).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before it).
    public let seconds: Int64
    /// Nanoseconds past ``seconds``, `0..<1_000_000_000`.
    public let nanoseconds: Int32

    /// A timestamp from seconds and nanoseconds; nanoseconds outside
    /// `0..<1e9` carry into seconds. Saturates instead of overflowing.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        var carry = nanoseconds / 1_000_000_000
        var remainder = nanoseconds % 1_000_000_000
        if remainder < 0 {
            remainder += 1_000_000_000
            carry -= 1
        }
        let (sum, overflow) = seconds.addingReportingOverflow(carry)
        self.seconds = overflow ? (carry > 0 ? .max : .min) : sum
        self.nanoseconds = Int32(remainder)
    }

    /// A timestamp from milliseconds since the epoch (APNs' 410 `timestamp`,
    /// Herald's receipt header). Total over `Int64`: floor division, so no
    /// value overflows.
    public init(millisecondsSinceEpoch milliseconds: Int64) {
        var (seconds, remainder) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if remainder < 0 {
            seconds -= 1
            remainder += 1000
        }
        self.init(seconds: seconds, nanoseconds: remainder * 1_000_000)
    }

    /// The Unix epoch.
    public static let epoch = Timestamp(seconds: 0)

    /// Milliseconds since the epoch, rounded down (saturating).
    public var millisecondsSinceEpoch: Int64 {
        let milliseconds = Int128(seconds) * 1000 + Int128(nanoseconds / 1_000_000)
        return Int64(clamping: milliseconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// The timestamp `duration` later (earlier if negative), saturating.
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        let (wholeSeconds, attoseconds) = rhs.components
        let (sum, overflow) = lhs.seconds.addingReportingOverflow(wholeSeconds)
        if overflow { return Timestamp(seconds: wholeSeconds > 0 ? .max : .min) }
        return Timestamp(seconds: sum, nanoseconds: Int64(lhs.nanoseconds) + attoseconds / 1_000_000_000)
    }

    /// The time from `rhs` to `lhs` (negative if `lhs` is earlier), saturating.
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        let (difference, overflow) = lhs.seconds.subtractingReportingOverflow(rhs.seconds)
        if overflow { return .seconds(lhs.seconds > rhs.seconds ? Int64.max : Int64.min) }
        return .seconds(difference) + .nanoseconds(Int64(lhs.nanoseconds) - Int64(rhs.nanoseconds))
    }

    /// RFC 3339 with milliseconds: `2026-11-30T10:00:01.234Z`.
    public var description: String { rfc3339() }
}

extension Timestamp {
    /// The wall-clock time now (`CLOCK_REALTIME`). Code that decides on time
    /// (expiry, retries, token refresh) takes a time or a clock as a parameter
    /// instead of calling this, so tests control it.
    public static func now() -> Timestamp {
        let (seconds, nanoseconds) = WallClock.now()
        return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }
}
