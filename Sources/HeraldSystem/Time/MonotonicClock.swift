import Glibc

/// Nanoseconds on `CLOCK_MONOTONIC`, for the event loops' deadlines, timers
/// and waits: time that only moves forward, whatever the wall clock does.
///
/// The arithmetic saturates at `UInt64.max`: a configured duration too long
/// to count (a way to turn a timeout off) is a deadline that never comes,
/// never an overflow trap; a negative duration counts as zero.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary fixed point (the system's boot).
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// `duration` in nanoseconds: 0 for a negative one, `UInt64.max` for one
    /// longer than about 584 years.
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max : later(whole, by: UInt64(attoseconds / 1_000_000_000))
    }

    /// `time` plus `nanoseconds`, saturating at `UInt64.max`.
    public static func later(_ time: UInt64, by nanoseconds: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(nanoseconds)
        return overflow ? UInt64.max : sum
    }

    /// `time` minus `earlier`, 0 when `earlier` is not before it.
    public static func elapsed(from earlier: UInt64, to time: UInt64) -> UInt64 {
        time > earlier ? time - earlier : 0
    }

    /// The deadline `duration` after `time` (default: now), saturating.
    public static func deadline(after duration: Duration, from time: UInt64 = now()) -> UInt64 {
        later(time, by: nanoseconds(duration))
    }

    /// `nanoseconds` as seconds with one decimal, for messages: "3.1 s".
    public static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
