import HeraldCore
import HeraldSystem

/// Decides, request by request, which configured fault (if any) applies: none
/// outside the faults' scope (their services and tokens); inside it the rate
/// limit first (a fixed window over the request's time), then one random
/// draw for an error, a stream reset, a hang or a dropped connection. The faults can be replaced while
/// serving (the admin API's `PUT /_herald/faults`).
public final class FaultInjector: Sendable {
    /// What to do instead of handling a request.
    public enum Decision: Sendable, Equatable {
        case handle
        /// Answer with the service's own error for this status.
        case error(status: Int)
        /// Reset the stream (RST_STREAM INTERNAL_ERROR) without answering.
        case reset
        /// Never answer the stream.
        case hang
        /// Close the stream's whole connection with a TCP reset.
        case drop

        /// The kind the record names; nil for `handle`.
        public var kind: InjectedFaultKind? {
            switch self {
            case .handle: nil
            case .error: .error
            case .reset: .reset
            case .hang: .hang
            case .drop: .drop
            }
        }
    }

    /// The decision for one request and the latency to add to its answer.
    public struct Verdict: Sendable, Equatable {
        public var decision: Decision
        public var latency: Duration?

        public init(decision: Decision, latency: Duration?) {
            self.decision = decision
            self.latency = latency
        }
    }

    private struct State {
        var faults: SimulatorFaults
        var window: (start: Timestamp, count: Int) = (.epoch, 0)
    }

    private let state: Locked<State>
    private let random: @Sendable () -> Double

    /// - Parameter random: a source of values in 0..<1 (injected so tests are deterministic).
    public init(faults: SimulatorFaults, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        state = Locked(State(faults: faults))
        self.random = random
    }

    /// The faults in force.
    public var faults: SimulatorFaults { state.withLock { $0.faults } }

    /// Puts `faults` in force from the next request on (the rate-limit window starts again).
    public func replace(with faults: SimulatorFaults) {
        state.withLock { $0 = State(faults: faults) }
    }

    /// The verdict for a request to `service` at `now`; `addressee` is asked
    /// only when the faults are aimed at tokens (reading FCM's addressee parses its body).
    public func decide(
        service: String, addressee: () -> SimulatedAddressee?, at now: Timestamp
    ) -> Verdict {
        let faults = self.faults
        guard faults.services.contains(service) else { return Verdict(decision: .handle, latency: nil) }
        if !faults.tokens.isEmpty {
            guard let addressee = addressee(), faults.tokens.contains(where: addressee.isTarget) else {
                return Verdict(decision: .handle, latency: nil)
            }
        }
        return Verdict(decision: decision(faults, at: now), latency: faults.latency?.duration)
    }

    private func decision(_ faults: SimulatorFaults, at now: Timestamp) -> Decision {
        if let limit = faults.rateLimit {
            let overLimit = state.withLock { state -> Bool in
                if now - state.window.start >= limit.per.duration || now < state.window.start {
                    state.window = (now, 0)
                }
                state.window.count += 1
                return state.window.count > limit.requests
            }
            if overLimit { return .error(status: 429) }
        }
        guard faults.errorRate > 0 || faults.resetRate > 0 || faults.hangRate > 0 || faults.dropRate > 0 else {
            return .handle
        }
        let draw = random()
        if draw < faults.errorRate { return .error(status: faults.errorStatus) }
        if draw < faults.errorRate + faults.resetRate { return .reset }
        if draw < faults.errorRate + faults.resetRate + faults.hangRate { return .hang }
        if draw < faults.errorRate + faults.resetRate + faults.hangRate + faults.dropRate { return .drop }
        return .handle
    }
}
