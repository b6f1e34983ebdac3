/// The admission rule both loops share, and the submissions waiting past a
/// client's `maxInFlightRequests`, oldest first.
///
/// A request's timeout counts from when the loop first took it, time spent
/// waiting here included, so one that waits past it fails with `.timeout`
/// (retryable) without being sent.
struct WaitingRoom {
    /// What to do with a submission the loop took.
    enum Admission {
        /// Start it now: its deadline (monotonic ns) and the timeout it came from.
        case start(Submission, timeout: Duration, deadline: UInt64)
        /// Already answered (cancelled before the loop took it), or now waiting here.
        case none
        /// Its deadline passed while it waited.
        case expired(HTTPClientError)
    }

    private var waiting: [Submission] = []
    private var head = 0

    mutating func admit(_ submission: Submission, active: Int, configuration: HTTPClientConfiguration) -> Admission {
        guard !submission.pending.isFinished else { return .none }
        var submission = submission
        let takenAt = submission.takenAt ?? LoopClock.now()
        submission.takenAt = takenAt
        guard active < configuration.maxInFlightRequests else {
            waiting.append(submission)
            return .none
        }
        let timeout = submission.request.timeout ?? configuration.requestTimeout
        let deadline = takenAt + LoopClock.nanoseconds(timeout)
        guard LoopClock.now() < deadline else {
            return .expired(HTTPClientError(
                kind: .timeout, host: URLHost.hostAndPort(of: submission.request.url),
                message: "timed out after \(timeout) waiting for a free request slot"))
        }
        return .start(submission, timeout: timeout, deadline: deadline)
    }

    /// The oldest waiting submission, while fewer than the limit are active.
    mutating func next(active: Int, limit: Int) -> Submission? {
        guard head < waiting.count, active < limit else {
            if head > 0 && head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            }
            return nil
        }
        head += 1
        return waiting[head - 1]
    }

    /// Everything still waiting (the loop is stopping).
    mutating func drain() -> [Submission] {
        let left = Array(waiting[head...])
        waiting.removeAll()
        head = 0
        return left
    }
}
