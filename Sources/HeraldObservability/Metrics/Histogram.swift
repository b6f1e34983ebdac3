import HeraldCore
import HeraldSystem

/// Observations sorted into cumulative buckets, with their sum and count:
/// latencies, rendered as Prometheus `_bucket`, `_sum` and `_count`.
public final class Histogram: Sendable {
    struct State {
        var counts: [Int]
        var sum: Double = 0
        var count: Int = 0
    }

    /// Upper bounds, ascending; `+Inf` is implied.
    public let bounds: [Double]
    private let state: Locked<State>

    init(bounds: [Double]) {
        self.bounds = bounds
        state = Locked(State(counts: Array(repeating: 0, count: bounds.count)))
    }

    public func observe(_ value: Double) {
        // The first bucket whose bound holds the value; counts are made cumulative when rendered.
        let index = bounds.firstIndex(where: { value <= $0 })
        state.withLock { s in
            if let index { s.counts[index] += 1 }
            s.sum += value
            s.count += 1
        }
    }

    public func observe(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Cumulative counts per bound, then the sum and the total count.
    var snapshot: (cumulative: [Int], sum: Double, count: Int) {
        state.withLock { s in
            var running = 0
            let cumulative = s.counts.map {
                running += $0; return running
            }
            return (cumulative, s.sum, s.count)
        }
    }

    /// Bounds for request latencies: 1 ms to 10 s.
    public static let latencyBounds: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]
}
