import Glibc

/// Paces an I/O loop thread (the AMQP connection's, an HTTP/2 client's) while
/// it is busy, so that a steady moderate load costs fewer wake-ups.
///
/// A loop that sleeps until something arrives wakes once per message when
/// messages come a few hundred microseconds apart: each wake-up is a context
/// switch on the loop thread, a wake-up system call by whoever queued the
/// work, and downstream a pool thread woken for each continuation the pass
/// resumes. On a 2-core machine shared with the broker, pacing takes ~25–30%
/// off Herald's CPU per notification at half its maximum rate (`bench/e2e.sh`;
/// docs/configuration.md, `io_pacing`, gives the machines).
///
/// While busy, a paced loop looks for work once per `window` instead: where
/// it would sleep, it naps until `window` after its previous pass began,
/// without asking producers to wake it, and then handles everything that
/// arrived meanwhile in one pass. A pass longer than the window is followed
/// at once by the next. After `idlePasses` passes in a row that found nothing
/// (8 by default: 16 ms at a 2 ms window) it sleeps as before and the first
/// message wakes it, so an idle service costs nothing, a sparse stream of
/// messages costs a few naps each, and an isolated message waits for no
/// window. The price is at most `window` of added wait per loop a message
/// crosses.
public struct LoopPacing: Sendable {
    /// `.zero` turns pacing off: the loop sleeps whenever it has nothing to do.
    public let window: Duration
    /// Empty passes in a row after which the loop sleeps until woken.
    public let idlePasses: Int
    private var passBegan: ContinuousClock.Instant
    private var emptyPasses: Int

    public init(window: Duration, idlePasses: Int = 8) {
        self.window = max(.zero, window)
        self.idlePasses = max(1, idlePasses)
        passBegan = .now
        emptyPasses = idlePasses
    }

    /// The loop begins a pass (it has just woken or napped).
    public mutating func passBegins(at now: ContinuousClock.Instant = .now) {
        passBegan = now
    }

    /// Where the loop would sleep until woken: how long to nap instead, or
    /// nil to sleep as usual. `foundWork` says whether the pass that is
    /// ending handled anything; `limit` caps the nap (the loop's own timers).
    /// A nap of `.zero` means: look again at once.
    public mutating func nap(foundWork: Bool, limit: Duration, now: ContinuousClock.Instant = .now) -> Duration? {
        guard window > .zero else { return nil }
        emptyPasses = foundWork ? 0 : emptyPasses + 1
        guard emptyPasses < idlePasses else { return nil }
        let remaining = window - (now - passBegan)
        return max(.zero, min(remaining, limit))
    }

    /// Sleeps the calling thread for `duration` (a nap), without waking for anything.
    public static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
