import CHeraldShim
import CNGHTTP2
import Glibc
import Foundation
import HeraldCore
import HeraldSystem

/// The nghttp2 engine's loop thread: epoll over the connections' sockets and
/// the submission queue's eventfd, the connection pools per origin, the
/// requests in flight and their deadlines. Created, run and destroyed on
/// that one thread; other threads reach it only through the `SubmissionQueue`.
///
/// One pass: run executor jobs, start submissions, cancel, take resolved
/// names; hand queued requests to connections with free streams; write each
/// connection's frames once (so the requests of a pass share TCP segments);
/// resume the waiters; then sleep in `epoll_wait` until a socket, the
/// eventfd or the next deadline scan — or, while busy, nap until the pacing
/// window has passed and look at everything at once (`LoopPacing`).
final class H2ClientLoop {
    static let housekeepingInterval: UInt64 = 20_000_000
    static let wakeToken: UInt64 = 0
    static let connectBackoff: UInt64 = 200_000_000
    /// Times a request the server refused unprocessed is sent again before it fails (retryably).
    static let maxRefusals = 3

    let configuration: HTTPClientConfiguration
    let queue: SubmissionQueue
    let executor: HTTPClientExecutor
    let logger: Logger
    let statistics: HTTPClientStatistics
    let epollFD: Int32
    let callbacks: H2SessionCallbacks
    /// Made on the first `https` request; a broken TLS configuration fails every such request.
    var tls: Result<H2TLSContext, HTTPClientError>?
    var origins: [String: H2Origin] = [:]
    var connections: [UInt64: H2Connection] = [:]
    var nextConnectionID: UInt64 = 1
    /// Requests started and not answered, queued at an origin or on a stream.
    var active: [UInt64: H2Stream] = [:]
    /// Submissions beyond `maxInFlightRequests`.
    var waiting = WaitingRoom()
    var dispatchPending: [H2Origin] = []
    var completions = CompletionBatch()
    var nextHousekeeping: UInt64 = 0
    let readBuffer: UnsafeMutableRawBufferPointer
    var events: [epoll_event]
    var pacing: LoopPacing
    var passes = 0
    var sleeps = 0
    var naps = 0

    init?(
        configuration: HTTPClientConfiguration, queue: SubmissionQueue, executor: HTTPClientExecutor, logger: Logger,
        statistics: HTTPClientStatistics
    ) {
        guard queue.wakeFD >= 0, let callbacks = H2SessionCallbacks() else { return nil }
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { return nil }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, queue.wakeFD, &event) == 0 else {
            Glibc.close(epollFD)
            return nil
        }
        self.configuration = configuration
        pacing = LoopPacing(window: configuration.pacingWindow)
        self.queue = queue
        self.executor = executor
        self.logger = logger
        self.statistics = statistics
        self.epollFD = epollFD
        self.callbacks = callbacks
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        events = Array(repeating: epoll_event(), count: 64)
    }

    deinit {
        for connection in connections.values { connection.close() }
        Glibc.close(epollFD)
        readBuffer.deallocate()
    }

    // MARK: The loop

    /// Runs until the client asks to stop; then fails whatever is left with `.shutdown`.
    func run() {
        queue.attach(nil)
        executor.loopStarted()
        logger.debug("HTTP client loop started", ["engine": "nghttp2"])
        var work = queue.take(maySleep: false).work
        var eventCount = 0
        while !work.stopRequested {
            passes += 1
            if !work.jobs.isEmpty {
                let jobs = work.jobs
                work.jobs = []
                for job in jobs { executor.run(job) }
                work.absorb(queue.take(maySleep: false).work)
            }
            for submission in work.submissions { start(submission) }
            for id in work.cancellations { cancel(id) }
            for resolution in work.resolutions { resolved(resolution) }
            let now = MonotonicClock.now()
            if now >= nextHousekeeping {
                nextHousekeeping = now + Self.housekeepingInterval
                housekeeping(now)
            }
            startWaiting()
            dispatchMarked()
            flushConnections()
            completions.deliver()
            // A nap leaves the queue marked awake: producers queue without waking us.
            let nap =
                work.jobs.isEmpty
                ? pacing.nap(foundWork: eventCount > 0 || !work.isEmpty, limit: .milliseconds(Int(sleepTimeout)))
                : nil
            if let nap {
                naps += 1
                LoopPacing.sleep(nap)
            }
            let next = queue.take(maySleep: work.jobs.isEmpty && nap == nil)
            if next.sleep { sleeps += 1 }
            let timeout: Int32 = next.sleep ? sleepTimeout : 0
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), timeout)
            }
            if next.sleep { queue.awake() }
            pacing.passBegins()
            eventCount = Int(max(0, count))
            if count > 0 {
                for index in 0..<Int(count) { handle(events[index]) }
            }
            if next.sleep {
                work = queue.take(maySleep: false).work
            } else {
                let carried = work.jobs
                work = next.work
                work.jobs = carried + work.jobs
            }
        }
        stop()
    }

    private func handle(_ event: epoll_event) {
        let token = event.data.u64
        if token == Self.wakeToken {
            queue.clearWake()
            return
        }
        guard let connection = connections[token] else { return }
        let flags = event.events
        let failed = flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        switch connection.state {
        case .connecting:
            if let error = connection.finishConnect(tls: try? tls?.get(), keepAliveSeconds: keepAliveSeconds) {
                connectionFailed(connection, error)
                return
            }
            if connection.state == .connecting {
                // The next address, on a new socket.
                watch(connection)
                return
            }
            fallthrough
        case .handshaking:
            switch connection.continueHandshake() {
            case .waiting:
                updateInterest(connection)
            case .failed(let error):
                connectionFailed(connection, error)
            case .done:
                if let error = connection.startSession(callbacks: callbacks, now: MonotonicClock.now()) {
                    connectionFailed(connection, error)
                } else {
                    logger.debug("HTTP/2 connection open", ["host": .string(connection.origin.hostAndPort)])
                    markForDispatch(connection.origin)
                    updateInterest(connection)
                }
            }
        case .open:
            if flags & EPOLLIN.rawValue != 0 || failed {
                if case .closed(let reason) = connection.readAvailable(into: readBuffer) {
                    if connection.settingsReceived {
                        connectionLost(connection, reason)
                    } else {
                        // Closed before it could carry a stream (e.g. a TLS 1.3 server
                        // refusing our client certificate after the handshake): the
                        // requests waiting for it fail rather than wait for another.
                        connectionFailed(
                            connection,
                            HTTPClientError(
                                kind: .connectionLost, host: connection.origin.hostAndPort,
                                message: "the connection closed before the server's HTTP/2 SETTINGS: \(reason)"))
                    }
                    return
                }
            }
            if flags & EPOLLOUT.rawValue != 0 { connection.needsFlush = true }
        case .resolving, .closed:
            break
        }
    }

    /// How long the loop may sleep (ms): the deadline scan's 20 ms while
    /// requests or connects are under way; otherwise only as often as PINGs
    /// and idle connections need (an idle client wakes about once a second,
    /// not fifty times).
    private var sleepTimeout: Int32 {
        if !active.isEmpty || connections.values.contains(where: { $0.state != .open }) {
            return Int32(Self.housekeepingInterval / 1_000_000)
        }
        if connections.isEmpty { return 1000 }
        let keepAlive = MonotonicClock.nanoseconds(configuration.keepAliveInterval)
        let maxIdle = MonotonicClock.nanoseconds(configuration.maxIdleConnectionAge)
        return Int32(clamping: max(20, min(1000, min(keepAlive, maxIdle) / 2 / 1_000_000)))
    }

    var keepAliveSeconds: Int32 {
        Int32(
            max(
                1, min(Int(Int32.max), Int(MonotonicClock.nanoseconds(configuration.keepAliveInterval) / 1_000_000_000))
            ))
    }

    // MARK: Requests

    private func start(_ taken: Submission) {
        let (submission, timeout, deadline): (Submission, Duration, UInt64)
        switch waiting.admit(taken, active: active.count, configuration: configuration) {
        case .none: return
        case .failed(let error):
            completions.add(taken.pending, .failure(error))
            return
        case .start(let admitted, let limit, let due): (submission, timeout, deadline) = (admitted, limit, due)
        }
        let pending = submission.pending
        let request = submission.request
        guard let url = H2URL(request.url) else {
            completions.add(
                pending,
                .failure(
                    HTTPClientError(
                        kind: .invalidRequest, host: URLHost.hostAndPort(of: request.url),
                        message: "not an absolute http:// or https:// URL: \(request.url)")))
            return
        }
        if url.secure, case .failure(let error) = tlsContext() {
            completions.add(
                pending,
                .failure(
                    HTTPClientError(kind: error.kind, host: url.host + ":" + String(url.port), message: error.message)))
            return
        }
        let stream = H2Stream(pending: pending, request: request, url: url, deadline: deadline, timeout: timeout)
        active[pending.id] = stream
        let key = url.origin
        let origin =
            origins[key]
            ?? {
                let origin = H2Origin(url: url)
                origins[key] = origin
                return origin
            }()
        origin.enqueue(stream)
        markForDispatch(origin)
    }

    private func tlsContext() -> Result<H2TLSContext, HTTPClientError> {
        if let tls { return tls }
        let made = Result { () throws(HTTPClientError) -> H2TLSContext in try H2TLSContext(configuration.tls) }
        if case .failure(let error) = made {
            logger.error("HTTP client TLS configuration unusable", ["error": .string(error.message)])
        }
        tls = made
        return made
    }

    /// Hands waiting submissions on while in-flight slots are free.
    private func startWaiting() {
        while let next = waiting.next(active: active.count, limit: configuration.maxInFlightRequests) { start(next) }
    }

    private func cancel(_ id: UInt64) {
        guard let stream = active.removeValue(forKey: id) else { return }
        abandon(stream)
    }

    /// Ends a request whose waiter has gone (cancelled) or been answered (timeout): resets its stream.
    func abandon(_ stream: H2Stream) {
        stream.isDone = true
        resetOnWire(stream)
    }

    /// Sends RST_STREAM (CANCEL) for a submitted request nobody waits for any more.
    func resetOnWire(_ stream: H2Stream) {
        guard let connection = stream.connection, let session = connection.session, stream.streamID > 0 else { return }
        _ = nghttp2_submit_rst_stream(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.streamID, NGHTTP2_CANCEL.rawValue)
        connection.needsFlush = true
    }

    func finish(_ stream: H2Stream, _ result: Result<HTTPClientResponse, HTTPClientError>) {
        guard !stream.isDone else { return }
        stream.isDone = true
        active.removeValue(forKey: stream.id)
        if case .failure(let error) = result {
            logger.debug(
                "request failed",
                [
                    "host": .string(error.host), "kind": .string(error.kind.rawValue),
                    "retryable": .bool(error.isRetryable),
                ])
        }
        completions.add(stream.pending, result)
    }

    // MARK: Dispatch: queued requests onto streams, new connections

    func markForDispatch(_ origin: H2Origin) {
        if !dispatchPending.contains(where: { $0 === origin }) { dispatchPending.append(origin) }
    }

    private func dispatchMarked() {
        guard !dispatchPending.isEmpty else { return }
        let marked = dispatchPending
        dispatchPending.removeAll(keepingCapacity: true)
        for origin in marked { dispatch(origin) }
    }

    /// Fills open connections' free streams from the origin's queue; opens a
    /// connection when all are full, the waiting requests need one, and the
    /// limit allows.
    private func dispatch(_ origin: H2Origin) {
        let limit = configuration.maxConcurrentStreamsPerConnection
        for connection in origin.connections where connection.state == .open {
            var free = connection.capacity(limit: limit)
            while free > 0, let stream = origin.nextQueued() {
                origin.dequeue()
                if submit(stream, on: connection) { free -= 1 } else { break }
            }
            if !origin.hasQueued { return }
        }
        guard origin.nextQueued() != nil, MonotonicClock.now() >= origin.connectBackoffUntil,
            origin.needsAnotherConnection(streamLimit: limit)
        else { return }
        let usable = origin.connections.filter { $0.state != .closed && !$0.goAwayReceived }
        guard usable.count < max(1, configuration.maxConnectionsPerHost) else { return }
        openConnection(to: origin)
    }

    /// Submits `stream`'s request; false (and the request requeued or failed) when the connection cannot take it.
    private func submit(_ stream: H2Stream, on connection: H2Connection) -> Bool {
        guard let session = connection.session else { return false }
        let streamID = H2RequestHeaders.submit(stream, session: session)
        if streamID == NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE.rawValue {
            // Stream ids used up: this connection takes no more; the next dispatch opens another.
            connection.goAwayReceived = true
            connection.origin.requeue(stream)
            markForDispatch(connection.origin)
            return false
        }
        guard streamID > 0 else {
            finish(
                stream,
                .failure(
                    HTTPClientError(
                        kind: .invalidRequest, host: stream.host,
                        message: "the request cannot be sent: \(String(cString: nghttp2_strerror(streamID)))")))
            return true
        }
        stream.connection = connection
        stream.streamID = streamID
        connection.streams[streamID] = stream
        connection.lastActivity = MonotonicClock.now()
        connection.needsFlush = true
        return true
    }

    private func openConnection(to origin: H2Origin) {
        let connection = H2Connection(
            id: nextConnectionID, origin: origin, loop: self, now: MonotonicClock.now(),
            connectTimeout: MonotonicClock.nanoseconds(configuration.connectTimeout))
        nextConnectionID += 1
        origin.connections.append(connection)
        connections[connection.id] = connection
        let url = origin.url
        if url.hostIsAddress || url.host == "localhost" {
            // IP literals (and localhost, from /etc/hosts) resolve at once, without a thread.
            let found = H2Address.resolve(host: url.host, port: url.port, numericOnly: url.hostIsAddress)
            resolved(HostResolution(connectionID: connection.id, addresses: found.addresses, error: found.error))
            return
        }
        // getaddrinfo blocks: a resolver thread answers through the submission queue.
        let queue = queue
        let id = connection.id
        let thread = Thread {
            let found = H2Address.resolve(host: url.host, port: url.port, numericOnly: false)
            _ = queue.post(HostResolution(connectionID: id, addresses: found.addresses, error: found.error))
        }
        thread.name = "herald-resolve"
        thread.start()
    }

    private func resolved(_ resolution: HostResolution) {
        guard let connection = connections[resolution.connectionID], connection.state == .resolving else { return }
        if let error = resolution.error {
            connectionFailed(
                connection, HTTPClientError(kind: .connectFailed, host: connection.origin.hostAndPort, message: error))
            return
        }
        var addresses = resolution.addresses
        if configuration.egress.refusesSpecialPurposeAddresses {
            // The addresses connected to are exactly these: each passes the policy first.
            var refusal: EgressRefusal?
            addresses.removeAll { address in
                let found =
                    address.ipAddress.map { configuration.egress.refusal(for: $0) }
                    ?? EgressRefusal(rule: "the address \(address.text) is neither IPv4 nor IPv6")
                guard let found else { return false }
                refusal = found
                return true
            }
            if addresses.isEmpty, let refusal {
                connectionFailed(connection, .egressRefused(host: connection.origin.hostAndPort, refusal))
                return
            }
        }
        if let error = connection.connectNext(addresses) {
            connectionFailed(
                connection,
                HTTPClientError(
                    kind: .connectFailed, host: connection.origin.hostAndPort, message: "could not connect: \(error)"))
            return
        }
        watch(connection)
    }

    /// Has epoll watch the connection's current socket: a connect to the next
    /// address opens a new one (closing the old one took it out of epoll).
    private func watch(_ connection: H2Connection) {
        guard connection.fd >= 0 else { return }
        guard connection.watchedFD != connection.fd else {
            updateInterest(connection)
            return
        }
        var event = epoll_event(
            events: EPOLLIN.rawValue | (connection.wantsWritable ? EPOLLOUT.rawValue : 0),
            data: epoll_data_t(u64: connection.id))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, connection.fd, &event) == 0 else {
            connectionFailed(
                connection,
                HTTPClientError(
                    kind: .other, host: connection.origin.hostAndPort,
                    message: "epoll_ctl: \(String(cString: strerror(errno)))"))
            return
        }
        connection.watchedFD = connection.fd
        connection.registeredWritable = connection.wantsWritable
    }

    func updateInterest(_ connection: H2Connection) {
        guard connection.fd >= 0, connection.wantsWritable != connection.registeredWritable else { return }
        var event = epoll_event(
            events: EPOLLIN.rawValue | (connection.wantsWritable ? EPOLLOUT.rawValue : 0),
            data: epoll_data_t(u64: connection.id))
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &event)
        connection.registeredWritable = connection.wantsWritable
    }

    private func flushConnections() {
        for connection in connections.values where connection.needsFlush && connection.state == .open {
            if case .closed(let reason) = connection.flush() {
                connectionLost(connection, reason)
                continue
            }
            if connection.goAwayReceived && connection.isIdle {
                retire(connection)
                continue
            }
            updateInterest(connection)
        }
    }
}
