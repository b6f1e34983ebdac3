import Glibc

/// The system's wall clock (`CLOCK_REALTIME`), read where a time must be
/// stamped for people or peers: `Timestamp.now()` in HeraldCore is built on it.
public enum WallClock {
    /// Seconds and nanoseconds since the Unix epoch.
    public static func now() -> (seconds: Int64, nanoseconds: Int64) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (Int64(ts.tv_sec), Int64(ts.tv_nsec))
    }
}
