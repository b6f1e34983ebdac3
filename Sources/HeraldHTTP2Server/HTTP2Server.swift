import CHeraldShim
import Foundation
import HeraldCore
import HeraldSystem
import Synchronization

/// An HTTP/2 server on libnghttp2 and OpenSSL (TLS with ALPN `h2`, or h2c
/// with prior knowledge) that also serves HTTP/1.1 on the same port (ALPN
/// `http/1.1`, or a request line): the transport under Herald's APNs/FCM
/// simulator, whose Google endpoints are reached over both.
///
/// The socket is bound in `init`, so `port` is known before `run()`. `run()`
/// drives one event-loop thread (epoll) that owns every connection and
/// returns after `shutdown()` or when the calling task is cancelled. Requests
/// go to the `HTTP2Handler` on that thread; see `HTTP2Responder` for answering.
public final class HTTP2Server: Sendable {
    private enum RunState { case idle, running, finished }

    /// The bound port (the one the kernel chose when the configuration said 0).
    public let port: Int
    private let configuration: HTTP2ServerConfiguration
    private let handler: any HTTP2Handler
    private let logger: Logger
    private let listener: ListeningSocket
    private let inbox: ServerInbox
    private let state = Locked(RunState.idle)
    /// The loop thread's kernel thread id (0 until `run()` starts it), for
    /// diagnostics: its CPU time is in `/proc/self/task/<id>/stat`.
    let loopThreadID = Atomic<Int32>(0)

    /// Binds and listens; checks the TLS files so a bad certificate fails here, not in `run()`.
    public init(configuration: HTTP2ServerConfiguration, handler: some HTTP2Handler, logger: Logger)
        throws(HTTP2ServerError)
    {
        if let tls = configuration.tls { _ = try TLSServerContext(tls) }
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        listener = try ListeningSocket(host: configuration.host, port: configuration.port)
        inbox = try ServerInbox()
        port = listener.port
    }

    /// Serves until `shutdown()` or cancellation of the calling task (which
    /// shuts down gracefully). Call once.
    public func run() async throws {
        let canRun = state.withLock { state -> Bool in
            guard state == .idle else { return false }
            state = .running
            return true
        }
        guard canRun else { throw HTTP2ServerError.invalidConfiguration("run() may be called only once") }
        defer { state.withLock { $0 = .finished } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread { [configuration, listener, inbox, handler, logger, self] in
                    // The OS-level name (top -H, perf, /proc/*/task/*/comm); `Thread.name` does not reach it.
                    herald_set_thread_name("herald-h2-serve")
                    loopThreadID.store(herald_gettid(), ordering: .releasing)
                    // This thread makes every socket write: a peer that went away fails the
                    // write with EPIPE (the connection is closed) instead of ending the process.
                    BrokenPipe.blockOnThisThread()
                    do {
                        let loop = try ServerEventLoop(
                            configuration: configuration, listener: listener, inbox: inbox, handler: handler,
                            logger: logger)
                        loop.run()
                        continuation.resume()
                    } catch {
                        inbox.close()
                        listener.close()
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "herald-h2-server"
                thread.start()
            }
        } onCancel: {
            self.shutdown()
        }
    }

    /// Whether `run()` has been called: from then on the loop thread exists (or
    /// has already finished), whatever the caller's executor is busy with.
    /// Connections made before that wait in the listen backlog.
    public var hasStarted: Bool {
        state.withLock { $0 != .idle }
    }

    /// Stops accepting connections. Graceful: sends GOAWAY(NO_ERROR) on every
    /// HTTP/2 connection, answers open streams, and closes an HTTP/1.1
    /// connection after its current answer; everything is closed after the
    /// grace period at the latest. Not graceful: closes every connection at once.
    public func shutdown(graceful: Bool = true) {
        inbox.post(.shutdown(graceful: graceful))
    }

    /// Closes every open connection abruptly (TCP RST, no GOAWAY), as a
    /// crashed server would, and keeps listening. For tests of client recovery.
    public func abortConnections() {
        inbox.post(.abortConnections)
    }
}
