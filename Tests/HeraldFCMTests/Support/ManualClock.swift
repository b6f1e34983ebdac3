import HeraldCore
import HeraldSystem

/// A wall clock a test moves by hand, shared by the provider and the
/// simulator, so expiry is tested without sleeping.
final class ManualClock: Sendable {
    private let current: Locked<Timestamp>

    init(_ start: Timestamp = Timestamp(seconds: 1_796_032_800)) { current = Locked(start) }

    var now: Timestamp { current.withLock { $0 } }

    /// The clock as the closure the provider and cache take.
    var closure: @Sendable () -> Timestamp { { [self] in now } }

    func advance(by duration: Duration) { current.withLock { $0 = $0 + duration } }
}
