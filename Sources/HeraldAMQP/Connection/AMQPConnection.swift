import CHeraldShim
import Foundation
import HeraldCore
import Synchronization

/// Herald's connection to RabbitMQ: a confirmed publisher, consumers, and the
/// topology, over one rabbitmq-c connection that reconnects by itself.
///
/// rabbitmq-c is not thread-safe, so one dedicated thread (started by `run()`)
/// owns the connection; every method here hands a command to that thread and
/// suspends until it is done. Commands issued before `run()` or while
/// reconnecting wait (publishes, consumes) or fail as stale (acks).
///
/// - Important: A publish returns only when the broker confirmed it. A
///   retryable error (`isRetryable`) means the outcome is unknown or transient:
///   publish again. Delivery is at least once.
public final class AMQPConnection: Sendable {
    public let configuration: AMQPConfiguration
    /// Declared on every (re)connect before consumers are re-subscribed; nil declares nothing.
    public let topology: TopologyOptions?
    let logger: Logger
    let mailbox: Mailbox
    let status = ConnectionStatus()
    private let started = Atomic<Bool>(false)

    public init(configuration: AMQPConfiguration, topology: TopologyOptions? = nil, logger: Logger) throws(AMQPError) {
        self.configuration = configuration
        self.topology = topology
        self.logger = logger
        self.mailbox = try Mailbox()
    }

    /// The thread holds only the mailbox, not `self`: stop it when nobody can reach it any more.
    deinit {
        _ = mailbox.submit(.shutdown)
    }

    /// Runs the connection thread until `shutdown()` or task cancellation (both
    /// graceful: consumers stop, in-flight confirms get `shutdownGracePeriod`).
    /// Throws when reconnecting is hopeless (non-retryable connect error, or
    /// `reconnect.maxAttempts` failures in a row).
    public func run() async throws {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else {
            throw AMQPError(.invalidArgument, operation: "run", detail: "run() was already called", isRetryable: false)
        }
        let configuration = configuration
        let topology = topology
        let logger = logger
        let mailbox = mailbox
        let status = status
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    // The OS-level name (top -H, perf, /proc/*/task/*/comm); `Thread.name` does not reach it.
                    herald_set_thread_name("herald-amqp")
                    let loop = ConnectionLoop(
                        configuration: configuration, topology: topology, logger: logger,
                        mailbox: mailbox, status: status)
                    if let failure = loop.run() {
                        continuation.resume(throwing: failure)
                    } else {
                        continuation.resume()
                    }
                }
                thread.name = "herald-amqp"
                thread.start()
            }
        } onCancel: {
            self.shutdown()
        }
    }

    /// Asks the connection to stop gracefully; `run()` returns when it has.
    public func shutdown() {
        _ = mailbox.submit(.shutdown)
    }

    /// True while a connection is open.
    public var isConnected: Bool { status.isConnected }

    /// How many connections have been opened so far (1 after the first connect);
    /// `DeliveryTag.connection` holds this number for each delivery.
    public var connectionsOpened: UInt64 { status.generation }

    /// The broker node (`host:port`) of the current connection, or of the last
    /// one while reconnecting; nil before the first connect.
    public var connectedNode: String? { status.node }

    /// Waits until a connection is open (the topology declared); throws if `run()` stopped.
    public func waitUntilConnected() async throws {
        try await status.waitUntilConnected()
    }

    /// Hands `command` to the connection thread, or fails it when the thread is gone.
    func submit(_ command: Command) {
        if !mailbox.submit(command) {
            command.fail(
                AMQPError(
                    .shutdown, operation: "submit", detail: "the AMQP connection has stopped",
                    isRetryable: false))
        }
    }
}
