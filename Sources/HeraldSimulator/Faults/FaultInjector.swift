import HeraldCore
import Synchronization

/// Decides, request by request, which configured fault (if any) applies:
/// the rate limit first (a fixed window over the injected clock), then the
/// random error rate.
public final class FaultInjector: Sendable {
    /// What to do instead of handling a request.
    public enum Decision: Sendable, Equatable {
        case handle
        /// Answer with the service's own error for this status.
        case error(status: Int)
    }

    public let faults: SimulatorFaults
    private let window = Mutex<(start: Timestamp, count: Int)>((.epoch, 0))
    private let random: @Sendable () -> Double

    /// - Parameter random: a source of values in 0..<1 (injected so tests are deterministic).
    public init(faults: SimulatorFaults, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.faults = faults
        self.random = random
    }

    public func decide(at now: Timestamp) -> Decision {
        if let limit = faults.rateLimit {
            let overLimit = window.withLock { window -> Bool in
                if now - window.start >= limit.per.duration || now < window.start { window = (now, 0) }
                window.count += 1
                return window.count > limit.requests
            }
            if overLimit { return .error(status: 429) }
        }
        if faults.errorRate > 0, random() < faults.errorRate { return .error(status: faults.errorStatus) }
        return .handle
    }
}
