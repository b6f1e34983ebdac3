import CCurl
import CHeraldShim
import Glibc
import HeraldCore
import HeraldSystem

/// The locked hand-over between other threads and the loop thread: requests
/// to start, requests to cancel, and executor jobs to run (see
/// `HTTPClientExecutor`), plus the wake-up: a producer wakes the loop only
/// while it sleeps (in `epoll_wait`, or `curl_multi_poll` under libcurl), and
/// only once per sleep.
///
/// The wake-up is a write to an eventfd the loop polls beside its
/// connections' sockets, made after the lock is released: at moderate rates the loop is
/// asleep at almost every submission, and a system call under the lock made
/// the pool threads and the loop queue behind it (6% of the pool's and 3% of
/// the loop's samples at 2 250 events/s). The eventfd lives as long as this
/// queue, which every producer holds. Should the eventfd not be available
/// to the libcurl loop, `curl_multi_wakeup` is called under the lock instead, where the multi
/// handle's address lives while the loop runs, so it cannot race
/// `curl_multi_cleanup`.
final class SubmissionQueue: Sendable {
    private struct State {
        var submissions: [Submission] = []
        var cancellations: [UInt64] = []
        var jobs: [UnownedJob] = []
        var resolutions: [HostResolution] = []
        /// Whether a loop runs (and may sleep): set by `attach`, cleared by `detach`.
        var attached = false
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
        /// Names resolved for the nghttp2 engine's connections (see `post(_:)`).
        var resolutions: [HostResolution] = []
        var stopRequested = false

        var isEmpty: Bool {
            submissions.isEmpty && cancellations.isEmpty && jobs.isEmpty && resolutions.isEmpty && !stopRequested
        }

        /// Adds what `later` holds; its jobs replace ours (ours have run).
        mutating func absorb(_ later: Work) {
            submissions += later.submissions
            cancellations += later.cancellations
            resolutions += later.resolutions
            jobs = later.jobs
            stopRequested = stopRequested || later.stopRequested
        }
    }

    private let state = Locked(State())
    /// Written to wake the loop; -1 if no eventfd could be made.
    let wakeFD: Int32

    init() {
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    }

    deinit {
        if wakeFD >= 0 { Glibc.close(wakeFD) }
    }

    /// Queues a request; false once the client has stopped (the caller fails it).
    func submit(_ submission: Submission) -> Bool {
        add { $0.submissions.append(submission) }
    }

    func cancel(id: UInt64) {
        _ = add { $0.cancellations.append(id) }
    }

    /// Queues an executor job for the loop thread; false once the loop has
    /// stopped (the executor then hands the job to the global executor).
    func enqueue(_ job: UnownedJob) -> Bool {
        add { $0.jobs.append(job) }
    }

    /// Hands a resolver thread's answer to the loop; false once it has stopped.
    func post(_ resolution: HostResolution) -> Bool {
        add { $0.resolutions.append(resolution) }
    }

    /// Runs `change` under the lock unless the client has stopped, then wakes
    /// a sleeping loop once the lock is released; false if it had stopped.
    private func add(_ change: (inout State) -> Void) -> Bool {
        let (added, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.stopped else { return (false, false) }
            change(&state)
            return (true, wakeIfSleeping(&state))
        }
        if wake { signal() }
        return added
    }

    func requestStop() {
        let wake = state.withLock { state -> Bool in
            state.stopRequested = true
            return wakeIfSleeping(&state)
        }
        if wake { signal() }
    }

    /// The loop attaches when it starts; the curl loop gives its multi handle
    /// (the wake-up's fallback should no eventfd exist).
    func attach(_ multi: UnsafeMutableRawPointer?) {
        let address = UInt(bitPattern: multi)
        state.withLock {
            $0.multiAddress = address
            $0.attached = true
        }
    }

    /// The loop detaches before it frees the multi handle; returns what was
    /// queued but never taken (the loop fails the requests and hands the jobs on).
    func detach() -> Work {
        state.withLock { state in
            state.multiAddress = 0
            state.attached = false
            state.stopped = true
            let left = Work(submissions: state.submissions, cancellations: [], jobs: state.jobs, stopRequested: true)
            state.submissions = []
            state.cancellations = []
            state.jobs = []
            state.resolutions = []
            return left
        }
    }

    /// Takes queued work; marks the loop asleep if there is none and `maySleep`.
    func take(maySleep: Bool) -> (work: Work, sleep: Bool) {
        state.withLock { state in
            let work = Work(
                submissions: state.submissions, cancellations: state.cancellations, jobs: state.jobs,
                resolutions: state.resolutions, stopRequested: state.stopRequested)
            if !state.submissions.isEmpty { state.submissions.removeAll(keepingCapacity: true) }
            if !state.cancellations.isEmpty { state.cancellations.removeAll(keepingCapacity: true) }
            if !state.jobs.isEmpty { state.jobs.removeAll(keepingCapacity: true) }
            if !state.resolutions.isEmpty { state.resolutions.removeAll() }
            let sleep = maySleep && work.isEmpty
            state.sleeping = sleep
            return (work, sleep)
        }
    }

    /// Called by the loop when its poll returns.
    func awake() {
        state.withLock { state in
            state.sleeping = false
            state.notified = false
        }
    }

    /// Called by the loop after its poll found the eventfd readable.
    func clearWake() {
        var count: UInt64 = 0
        _ = Glibc.read(wakeFD, &count, 8)
    }

    /// Marks the sleeping loop as notified; true when the caller must then
    /// `signal()` (outside the lock). Without an eventfd it wakes the loop
    /// here, under the lock, and returns false.
    private func wakeIfSleeping(_ state: inout State) -> Bool {
        guard state.sleeping, !state.notified, state.attached else { return false }
        state.notified = true
        guard wakeFD >= 0 else {
            if let multi = UnsafeMutableRawPointer(bitPattern: state.multiAddress) { _ = curl_multi_wakeup(multi) }
            return false
        }
        return true
    }

    private func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }
}

/// A request handed from `send` to the loop thread.
struct Submission: Sendable {
    let pending: PendingRequest
    let request: HTTPClientRequest
    /// When the loop thread first took it (monotonic nanoseconds): the timeout
    /// counts from here, time spent waiting for an in-flight slot included
    /// (but not a delay in starting the loop itself).
    var takenAt: UInt64?
    /// Its place in `TenantQueues` (with `HTTPClientFairness`), once counted there.
    var slot: TenantSlot?
}

/// A resolver thread's answer for one of the nghttp2 engine's connections.
struct HostResolution: Sendable {
    let connectionID: UInt64
    let addresses: [H2Address]
    /// Why nothing was found (then `addresses` is empty).
    let error: String?
}
