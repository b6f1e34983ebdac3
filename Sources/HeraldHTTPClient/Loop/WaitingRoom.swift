import HeraldSystem

/// The admission rule both loops share, and the submissions waiting past a
/// client's `maxInFlightRequests`: oldest first, or, with
/// `HTTPClientFairness` (the libcurl loop), in a queue per tenant served in
/// turn (`TenantQueues`).
///
/// A request's timeout counts from when the loop first took it, time spent
/// waiting here included, so one that waits past it fails with `.timeout`
/// (retryable) without being sent, saying it was queued
/// (`HTTPClientError.queuedWithoutConnection`).
struct WaitingRoom {
    /// What to do with a submission the loop took.
    enum Admission {
        /// Start it now: its deadline (monotonic ns) and the timeout it came from.
        case start(Submission, timeout: Duration, deadline: UInt64)
        /// Already answered (cancelled before the loop took it), or now waiting here.
        case none
        /// Fail it, nothing sent: its deadline passed while it waited, or its
        /// sender is at the per-origin cap.
        case failed(HTTPClientError)
    }

    private var waiting: [Submission] = []
    private var head = 0
    private let tenants: TenantQueues?

    init(fairness: HTTPClientFairness? = nil) {
        tenants = fairness.map { TenantQueues(fairness: $0) }
    }

    var isEmpty: Bool {
        if let tenants { return tenants.queuedCount == 0 }
        return head >= waiting.count
    }

    mutating func admit(_ submission: Submission, active: Int, configuration: HTTPClientConfiguration) -> Admission {
        guard !submission.pending.isFinished else {
            if let slot = submission.slot { tenants?.release(slot) }
            return .none
        }
        var submission = submission
        let takenAt = submission.takenAt ?? MonotonicClock.now()
        submission.takenAt = takenAt
        if let tenants {
            // A submission handed back by `next` already holds its tenant's slot.
            if submission.slot == nil {
                switch tenants.enter(submission, active: active, limit: configuration.maxInFlightRequests) {
                case .queued: return .none
                case .refused(let error): return .failed(error)
                case .start(let counted): submission = counted
                }
            }
        } else if active >= configuration.maxInFlightRequests {
            waiting.append(submission)
            return .none
        }
        let timeout = submission.request.timeout ?? configuration.requestTimeout
        let deadline = MonotonicClock.later(takenAt, by: MonotonicClock.nanoseconds(timeout))
        let now = MonotonicClock.now()
        guard now < deadline else {
            if let slot = submission.slot { tenants?.release(slot) }
            return .failed(
                .queuedWithoutConnection(
                    host: URLHost.hostAndPort(of: submission.request.url), waitedNanoseconds: now - takenAt,
                    timeout: timeout))
        }
        return .start(submission, timeout: timeout, deadline: deadline)
    }

    /// The next waiting submission to hand to `admit`, while fewer than the
    /// limit are active: the oldest, or the next tenant's in turn.
    mutating func next(active: Int, limit: Int) -> Submission? {
        if let tenants { return tenants.next(active: active, limit: limit) }
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

    /// A started submission ended (answered, failed, cancelled): frees what
    /// it held in its tenant's share.
    func release(_ slot: TenantSlot?) {
        if let slot { tenants?.release(slot) }
    }

    /// Takes out the waiting submissions whose deadline has passed, each with
    /// the error it fails with.
    mutating func removeOverdue(now: UInt64, configuration: HTTPClientConfiguration) -> [(Submission, HTTPClientError)]
    {
        guard !isEmpty else { return [] }
        func timeout(_ submission: Submission) -> Duration {
            submission.request.timeout ?? configuration.requestTimeout
        }
        func overdue(_ submission: Submission) -> Bool {
            MonotonicClock.later(submission.takenAt ?? now, by: MonotonicClock.nanoseconds(timeout(submission))) <= now
        }
        let removed: [Submission]
        if let tenants {
            removed = tenants.remove(where: overdue)
        } else {
            let left = waiting[head...]
            removed = left.filter(overdue)
            guard !removed.isEmpty else { return [] }
            waiting = left.filter { !overdue($0) }
            head = 0
        }
        return removed.map { submission in
            (
                submission,
                .queuedWithoutConnection(
                    host: URLHost.hostAndPort(of: submission.request.url),
                    waitedNanoseconds: now - (submission.takenAt ?? now), timeout: timeout(submission))
            )
        }
    }

    /// Everything still waiting (the loop is stopping).
    mutating func drain() -> [Submission] {
        let left = Array(waiting[head...]) + (tenants?.drain() ?? [])
        waiting.removeAll()
        head = 0
        return left
    }
}
