import Glibc

extension Timestamp {
    /// The wall-clock time now (`CLOCK_REALTIME`). Code that decides on time
    /// (expiry, retries, token refresh) takes a time or a clock as a parameter
    /// instead of calling this, so tests control it.
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(seconds: Int64(ts.tv_sec), nanoseconds: Int64(ts.tv_nsec))
    }
}
