import CHeraldShim
import Foundation
import HeraldCore
import HeraldSystem
import Synchronization

/// A multiplexed HTTP/2 client: the transport under Herald's APNs and FCM
/// providers, on nghttp2 and OpenSSL (or, by `HTTPClientConfiguration.engine`,
/// libcurl's multi interface).
///
/// One thread owns the connections (sockets, TLS, HTTP/2 sessions); `send`
/// hands requests to it through a locked queue and an eventfd wake-up
/// and suspends on a continuation, so no cooperative thread ever blocks and
/// no C handle is touched from two threads. Start the thread with `run()`
/// (or use `withClient`); `shutdown()` or cancelling `run()` stops it.
///
/// - Important: A request that fails with `HTTPClientError.isRetryable`
///   (connection lost, GOAWAY, timeout, server restart, the per-origin cap of
///   `HTTPClientFairness`) may be sent again; the next one opens a new
///   connection if the old one is gone.
public final class HTTPClient: Sendable {
    private enum RunState { case idle, running, finished }

    /// The settings the client runs with.
    public let configuration: HTTPClientConfiguration
    private let logger: Logger
    private let queue: SubmissionQueue
    private let nextID = Atomic<UInt64>(1)
    private let state = Locked(RunState.idle)

    /// The connection pools' latest figures and the GOAWAYs received (nghttp2 engine).
    public let statistics = HTTPClientStatistics()

    /// Runs tasks on the loop thread: prefer it for tasks that send many
    /// requests (`withTaskExecutorPreference(client.executor) { … }`) and never block.
    public let executor: HTTPClientExecutor

    public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration(), logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        queue = SubmissionQueue()
        executor = HTTPClientExecutor(queue: queue)
    }

    /// Runs the loop thread until `shutdown()` or cancellation of the calling
    /// task. Requests sent before `run()` starts wait for it. Call once.
    public func run() async throws {
        let canRun = state.withLock { state -> Bool in
            guard state == .idle else { return false }
            state = .running
            return true
        }
        guard canRun else {
            throw HTTPClientError(kind: .invalidRequest, host: "", message: "HTTPClient.run() may be called only once")
        }
        defer { state.withLock { $0 = .finished } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread { [configuration, queue, executor, logger, statistics] in
                    // The OS-level name (top -H, perf, /proc/*/task/*/comm); `Thread.name` does not reach it.
                    herald_set_thread_name("herald-http")
                    // This thread makes every socket write: a peer that went away fails the
                    // write with EPIPE (the connection is closed) instead of ending the process.
                    BrokenPipe.blockOnThisThread()
                    let started: Bool
                    switch configuration.engine {
                    case .nghttp2:
                        let loop = H2ClientLoop(
                            configuration: configuration, queue: queue, executor: executor, logger: logger,
                            statistics: statistics)
                        loop?.run()
                        started = loop != nil
                    case .libcurl:
                        let loop = CurlMultiLoop(
                            configuration: configuration, queue: queue, executor: executor, logger: logger)
                        loop?.run()
                        started = loop != nil
                    }
                    guard started else {
                        let failure = HTTPClientError(
                            kind: .other, host: "",
                            message:
                                "the \(configuration.engine.rawValue) loop could not start (out of file descriptors?)")
                        let leftovers = queue.detach()
                        for job in leftovers.jobs { globalConcurrentExecutor.enqueue(job) }
                        for submission in leftovers.submissions { submission.pending.finish(.failure(failure)) }
                        continuation.resume(throwing: failure)
                        return
                    }
                    continuation.resume()
                }
                thread.name = "herald-http-client"
                thread.start()
            }
        } onCancel: {
            self.shutdown()
        }
    }

    /// Stops the loop: requests in flight or queued fail with `.shutdown`
    /// (retryable), later `send` calls fail at once.
    public func shutdown() {
        queue.requestStop()
    }

    /// Sends `request` and waits for its complete response.
    ///
    /// Any HTTP status is a response; transport failures throw
    /// `HTTPClientError`. Cancelling the calling task abandons the request
    /// (its stream is reset) and throws `HTTPClientError` of kind `.cancelled`.
    /// A request whose header breaks `HTTPFieldRule` throws `.invalidRequest`
    /// naming the header, and nothing is sent (both engines).
    public func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        if let problem = HTTPFieldRule.problem(in: request.headers) {
            throw HTTPClientError(
                kind: .invalidRequest, host: URLHost.hostAndPort(of: request.url),
                message: "\(problem); the request was not sent")
        }
        let pending = PendingRequest(
            id: nextID.add(1, ordering: .relaxed).oldValue, url: request.url, resumesOnLoop: executor.isCurrent)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                guard pending.install(continuation) else { return }
                if !queue.submit(Submission(pending: pending, request: request)) {
                    pending.finish(
                        .failure(
                            HTTPClientError(
                                kind: .shutdown, host: URLHost.hostAndPort(of: request.url),
                                message: "the HTTP client was shut down")))
                }
            }
        } onCancel: {
            if pending.cancel() { queue.cancel(id: pending.id) }
        }
    }

    /// Runs a client for the duration of `body`, then shuts it down.
    public static func withClient<Result: Sendable>(
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(), logger: Logger,
        _ body: (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let client = HTTPClient(configuration: configuration, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            do {
                let result = try await body(client)
                client.shutdown()
                try await group.waitForAll()
                return result
            } catch {
                client.shutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }
}
