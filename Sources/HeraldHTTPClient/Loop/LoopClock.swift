import Glibc

/// Monotonic time in nanoseconds, for deadlines on the loop threads.
enum LoopClock {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// `duration` in nanoseconds: 0 for a negative one, saturating at about
    /// 292 years (a configured timeout can be any `Duration`).
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max / 2 }
        return min(.max / 2, scaled + UInt64(attoseconds / 1_000_000_000))
    }

    /// `nanoseconds` as seconds with one decimal, for messages: "3.1 s".
    static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
