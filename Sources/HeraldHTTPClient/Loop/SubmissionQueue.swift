import CCurl
import Synchronization

/// The locked hand-over between other threads and the loop thread: requests
/// to start, requests to cancel, and executor jobs to run (see
/// `HTTPClientExecutor`), plus the wake-up: a producer calls
/// `curl_multi_wakeup` only while the loop sleeps in `curl_multi_poll`, and
/// only once per sleep.
///
/// The multi handle's address lives in the locked state while the loop runs,
/// so `curl_multi_wakeup` can never race `curl_multi_cleanup`.
final class SubmissionQueue: Sendable {
    private struct State {
        var submissions: [Submission] = []
        var cancellations: [UInt64] = []
        var jobs: [UnownedJob] = []
        /// The multi handle's address while the loop runs (0 otherwise); an
        /// integer because a raw pointer cannot be sent into the lock's region.
        var multiAddress: UInt = 0
        var sleeping = false
        var notified = false
        var stopRequested = false
        var stopped = false
    }

    /// What the loop takes in one go.
    struct Work {
        var submissions: [Submission] = []
        var cancellations: [UInt64] = []
        var jobs: [UnownedJob] = []
        var stopRequested = false

        var isEmpty: Bool { submissions.isEmpty && cancellations.isEmpty && jobs.isEmpty && !stopRequested }
    }

    private let state = Mutex(State())

    /// Queues a request; false once the client has stopped (the caller fails it).
    func submit(_ submission: Submission) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.submissions.append(submission)
            wakeIfSleeping(&state)
            return true
        }
    }

    func cancel(id: UInt64) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.cancellations.append(id)
            wakeIfSleeping(&state)
        }
    }

    /// Queues an executor job for the loop thread; false once the loop has
    /// stopped (the executor then hands the job to the global executor).
    func enqueue(_ job: UnownedJob) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.jobs.append(job)
            wakeIfSleeping(&state)
            return true
        }
    }

    func requestStop() {
        state.withLock { state in
            state.stopRequested = true
            wakeIfSleeping(&state)
        }
    }

    /// The loop attaches its multi handle when it starts.
    func attach(_ multi: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: multi)
        state.withLock { $0.multiAddress = address }
    }

    /// The loop detaches before it frees the multi handle; returns what was
    /// queued but never taken (the loop fails the requests and hands the jobs on).
    func detach() -> Work {
        state.withLock { state in
            state.multiAddress = 0
            state.stopped = true
            let left = Work(submissions: state.submissions, cancellations: [], jobs: state.jobs, stopRequested: true)
            state.submissions = []
            state.cancellations = []
            state.jobs = []
            return left
        }
    }

    /// Takes queued work; marks the loop asleep if there is none and `maySleep`.
    func take(maySleep: Bool) -> (work: Work, sleep: Bool) {
        state.withLock { state in
            let work = Work(
                submissions: state.submissions, cancellations: state.cancellations, jobs: state.jobs,
                stopRequested: state.stopRequested)
            if !state.submissions.isEmpty { state.submissions.removeAll(keepingCapacity: true) }
            if !state.cancellations.isEmpty { state.cancellations.removeAll(keepingCapacity: true) }
            if !state.jobs.isEmpty { state.jobs.removeAll(keepingCapacity: true) }
            let sleep = maySleep && work.isEmpty
            state.sleeping = sleep
            return (work, sleep)
        }
    }

    /// Called by the loop when `curl_multi_poll` returns.
    func awake() {
        state.withLock { state in
            state.sleeping = false
            state.notified = false
        }
    }

    private func wakeIfSleeping(_ state: inout State) {
        guard state.sleeping, !state.notified, let multi = UnsafeMutableRawPointer(bitPattern: state.multiAddress) else { return }
        state.notified = true
        _ = curl_multi_wakeup(multi)
    }
}
