import Glibc
import HeraldSystem

/// CPU time of this process (user + system), for cost per request.
enum CPUTime {
    static func processSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage)
    }

    static func seconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Elapsed time on the monotonic clock, in seconds.
    static func wallSeconds() -> Double {
        Double(MonotonicClock.now()) / 1e9
    }
}
