import CCurl
import CHeraldShim
import Glibc
import HeraldCore
import HeraldSystem

/// The loop thread's state: the multi handle, the transfers in flight and the
/// idle easy handles. Created, run and destroyed on that one thread; other
/// threads reach it only through the `SubmissionQueue`.
final class CurlMultiLoop {
    static let deadlineScanInterval: UInt64 = 50_000_000
    /// A full `curl_multi_perform` at least this often (ns), whatever `poll`
    /// said: due-only passes rely on libcurl marking every transfer that can
    /// progress, and this bounds the cost of any it does not mark.
    static let fullPerformInterval: UInt64 = 10_000_000

    let configuration: HTTPClientConfiguration
    let queue: SubmissionQueue
    let executor: HTTPClientExecutor
    let logger: Logger
    let multi: CurlMulti
    var active: [UInt64: Transfer] = [:]
    /// Submissions beyond `maxInFlightRequests` (or their tenant's share).
    var waiting: WaitingRoom
    var idle: [CurlEasy] = []
    var nextDeadlineScan: UInt64 = 0
    var nextFullPerform: UInt64 = 0
    /// Results of the current pass, handed to the cooperative pool together.
    var completions = CompletionBatch()
    /// Loop passes and `curl_multi_poll` sleeps, logged at stop (cost diagnostics).
    private var passes = 0
    private var sleeps = 0

    init?(configuration: HTTPClientConfiguration, queue: SubmissionQueue, executor: HTTPClientExecutor, logger: Logger)
    {
        guard let multi = CurlMulti(configuration: configuration) else { return nil }
        self.configuration = configuration
        self.queue = queue
        self.executor = executor
        self.logger = logger
        self.multi = multi
        waiting = WaitingRoom(fairness: configuration.fairness)
    }

    /// Runs until the client asks to stop; then fails whatever is left with `.shutdown`.
    func run() {
        queue.attach(multi.handle)
        executor.loopStarted()
        logger.debug("HTTP client loop started")
        var work = queue.take(maySleep: false).work
        // Whether the connections may have something to read or write; if not,
        // only the transfers libcurl marked due are driven (see `performDue`).
        var socketsReady = true
        while !work.stopRequested {
            passes += 1
            if !work.jobs.isEmpty { runJobs(&work) }
            for submission in work.submissions { start(submission) }
            for id in work.cancellations { cancel(id) }
            let now = MonotonicClock.now()
            if socketsReady || now >= nextFullPerform {
                multi.perform()
                nextFullPerform = now + Self.fullPerformInterval
            } else {
                multi.performDue()
            }
            multi.forEachCompleted(complete)
            expireOverdue()
            startWaiting()
            completions.deliver()
            // What this pass wrote leaves now, in as few segments as it fits.
            multi.sockets.flush()
            let next = queue.take(maySleep: work.jobs.isEmpty)
            if next.sleep {
                sleeps += 1
                let (stirred, woken) = multi.poll(timeoutMilliseconds: active.isEmpty ? 1000 : 50, wakeFD: queue.wakeFD)
                if woken { queue.clearWake() }
                queue.awake()
                work = queue.take(maySleep: false).work
                // Woken by neither a socket nor new work: a timer or the timeout; look at everything.
                socketsReady = stirred || work.isEmpty
            } else {
                // More work came during the pass: a look (no wait) at whether answers came too.
                let (ready, woken) = multi.poll(timeoutMilliseconds: 0, wakeFD: queue.wakeFD)
                if woken { queue.clearWake() }
                socketsReady = ready
                let carried = work.jobs
                work = next.work
                work.jobs = carried + work.jobs
            }
        }
        stop()
    }

    /// Runs tasks that prefer `HTTPClientExecutor`, then takes what they
    /// submitted so it starts in this pass; jobs they enqueued run next pass.
    private func runJobs(_ work: inout SubmissionQueue.Work) {
        let jobs = work.jobs
        work.jobs = []
        for job in jobs { executor.run(job) }
        work.absorb(queue.take(maySleep: false).work)
    }

    private func stop() {
        let leftovers = queue.detach()
        executor.loopStopped()
        for (_, transfer) in active {
            multi.remove(transfer.easy)
            transfer.pending.finish(.failure(shutdownError(transfer.url)))
        }
        multi.sockets.flush()
        active.removeAll()
        for submission in waiting.drain() + leftovers.submissions {
            submission.pending.finish(.failure(shutdownError(submission.request.url)))
        }
        // Tasks waiting for this executor still run (later jobs go to the global executor).
        for job in leftovers.jobs { executor.run(job) }
        idle.removeAll()
        logger.debug("HTTP client loop stopped", ["passes": .int(passes), "sleeps": .int(sleeps)])
    }

    private func shutdownError(_ url: String) -> HTTPClientError {
        HTTPClientError(kind: .shutdown, host: URLHost.hostAndPort(of: url), message: "the HTTP client was shut down")
    }

    private func start(_ taken: Submission) {
        let (submission, deadline): (Submission, UInt64)
        switch waiting.admit(taken, active: active.count, configuration: configuration) {
        case .none: return
        case .failed(let error):
            completions.add(taken.pending, .failure(error))
            return
        case .start(let admitted, _, let due): (submission, deadline) = (admitted, due)
        }
        let pending = submission.pending
        let request = submission.request
        if configuration.egress.refusesSpecialPurposeAddresses,
            let refusal = configuration.egress.refusal(forHost: URLHost.host(of: request.url))
        {
            pending.finish(.failure(.egressRefused(host: URLHost.hostAndPort(of: request.url), refusal)))
            return
        }
        guard let easy = idle.popLast() ?? makeEasy() else {
            waiting.release(submission.slot)
            pending.finish(
                .failure(
                    HTTPClientError(
                        kind: .other, host: URLHost.hostAndPort(of: request.url), message: "curl_easy_init failed")))
            return
        }
        let transfer = Transfer(
            pending: pending, url: request.url, easy: easy, deadline: deadline,
            bodyLimit: configuration.maxResponseBodyBytes,
            headerLimit: configuration.maxResponseHeaderBytes, acceptsHTTP1: configuration.acceptsHTTP1,
            takenAt: submission.takenAt ?? MonotonicClock.now(), slot: submission.slot, egress: configuration.egress)
        // libcurl gets what is left of the timeout.
        let now = MonotonicClock.now()
        let left = deadline > now ? deadline - now : 1
        var rc = easy.apply(request, to: transfer, timeout: .nanoseconds(Int64(clamping: left)))
        if rc == CURLE_OK {
            let added = multi.add(easy)
            if added != CURLM_OK { rc = CURLE_FAILED_INIT }
        }
        guard rc == CURLE_OK else {
            waiting.release(submission.slot)
            pending.finish(.failure(error(for: rc, transfer: transfer)))
            recycle(easy)
            return
        }
        active[pending.id] = transfer
    }

    /// Hands waiting submissions to libcurl while in-flight slots are free.
    private func startWaiting() {
        while let next = waiting.next(active: active.count, limit: configuration.maxInFlightRequests) { start(next) }
    }

    private func makeEasy() -> CurlEasy? {
        guard let easy = CurlEasy() else { return nil }
        easy.applyBase(configuration)
        if configuration.coalescesWrites { multi.sockets.install(on: easy) }
        return easy
    }

    private func cancel(_ id: UInt64) {
        guard let transfer = active.removeValue(forKey: id) else { return }
        multi.remove(transfer.easy)
        waiting.release(transfer.slot)
        recycle(transfer.easy)
    }

    func recycle(_ easy: CurlEasy) {
        guard idle.count < configuration.maxIdleHandles else { return }
        easy.clearRequestState()
        idle.append(easy)
    }
}
