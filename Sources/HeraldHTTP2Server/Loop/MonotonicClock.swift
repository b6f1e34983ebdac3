import Glibc

/// Nanoseconds on CLOCK_MONOTONIC, for loop timers and deadlines. Sums
/// saturate, so a configured duration too long to count (a way to turn a
/// timeout off) is a deadline that never comes, not a trap.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max : later(whole, by: UInt64(attoseconds / 1_000_000_000))
    }

    /// `time` plus `nanoseconds`, saturating.
    static func later(_ time: UInt64, by nanoseconds: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(nanoseconds)
        return overflow ? UInt64.max : sum
    }

    /// The deadline `duration` after `time` (default: now), saturating.
    static func deadline(after duration: Duration, from time: UInt64 = nanoseconds()) -> UInt64 {
        later(time, by: nanoseconds(duration))
    }
}
