import CHeraldShim
import HeraldCore

/// The body of the connection thread: owns the `RabbitConnection`, follows the
/// `ReconnectStateMachine`, and serves commands from the `Mailbox` while reading
/// frames, so heartbeats are serviced whether the connection is idle or busy.
///
/// Everything here runs on that one thread; nothing is shared except through
/// `Mailbox`, `ConnectionStatus` and the continuations it resumes.
final class ConnectionLoop {
    static let publishChannel: UInt16 = 1
    static let consumeChannel: UInt16 = 2
    static let adminChannel: UInt16 = 3
    /// Frames handled before commands (acks, publishes) get a turn.
    static let framesPerTurn = 512

    typealias Waiter = CheckedContinuation<Void, any Error>

    struct Outgoing {
        var message: AMQPMessage
        var mandatory: Bool
        var waiter: PublishWaiter
    }

    enum Exit {
        case lost(AMQPError)
        case shutdown
    }

    let configuration: AMQPConfiguration
    let topology: TopologyOptions?
    let logger: Logger
    let mailbox: Mailbox
    let status: ConnectionStatus
    var machine: ReconnectStateMachine

    var connection: RabbitConnection?
    var addresses: BrokerAddresses
    /// Counts connections; a `DeliveryTag` from another generation is stale.
    var generation: UInt64 = 0
    var confirms = ConfirmTracker<PublishWaiter>()
    /// Publishes waiting for room in the confirm window or for a connection.
    var outbox: [Outgoing] = []
    var outboxHead = 0
    /// Consume and admin commands waiting for a connection.
    var deferred: [Command] = []
    var deliveries = DeliveryTracker()
    /// Single acks not yet written, written together by `flushAcks`: at the
    /// end of a turn, or later within `ackDelay` (`AckHolding`).
    var pendingAcks: [(tag: UInt64, waiter: Waiter?)] = []
    /// When the oldest of `pendingAcks` was taken.
    var pendingAcksSince: ContinuousClock.Instant?
    /// How long acks may be held, from the configuration.
    var ackHolding: AckHolding { AckHolding(delay: configuration.ackDelay) }
    var consumers: [String: ConsumerRegistration] = [:]
    var assemblers: [UInt16: ContentAssembler] = [:]
    var adminChannelOpen = false
    /// The broker sent `connection.blocked` (resource alarm) and not yet `unblocked`.
    var blocked = false
    var shutdownRequested = false
    var shutdownDeadline: ContinuousClock.Instant?

    init(
        configuration: AMQPConfiguration, topology: TopologyOptions?, logger: Logger, mailbox: Mailbox,
        status: ConnectionStatus
    ) {
        self.configuration = configuration
        self.topology = topology
        self.logger = logger
        self.mailbox = mailbox
        self.status = status
        self.machine = ReconnectStateMachine(policy: configuration.reconnect)
        self.addresses = BrokerAddresses(configuration.addresses, shuffled: configuration.shuffleURLs)
    }

    var outboxIsEmpty: Bool { outboxHead >= outbox.count }

    /// Runs until shutdown or until reconnecting is hopeless; returns the failure, if any.
    func run() -> AMQPError? {
        var action = machine.start()
        while true {
            switch action {
            case .connect:
                takeCommandsWhileDisconnected()
                if shutdownRequested {
                    action = machine.shutdownRequested()
                    continue
                }
                do throws(AMQPError) {
                    try connect()
                    _ = machine.connectSucceeded(at: .now)
                    switch serve() {
                    case .shutdown:
                        action = machine.shutdownRequested()
                    case .lost(let error):
                        tearDown(error)
                        addresses.lost()
                        action = machine.connectionLost(at: .now)
                    }
                } catch {
                    action = machine.connectFailed(at: .now, error: error)
                }
            case .wait(let until), .tearDownAndWait(let until):
                action = backOff(until: until)
            case .stop(let failure):
                stop(failure)
                return failure
            case .none:
                action = machine.shutdownRequested()
            }
        }
    }

    /// Sleeps until `until`, still answering commands (publishes are held, stale acks refused).
    private func backOff(until: ContinuousClock.Instant) -> ReconnectStateMachine.Action {
        let delay = (until - .now).components
        logger.info(
            "amqp reconnect scheduled",
            ["in_ms": .int(Int(delay.seconds * 1000 + delay.attoseconds / 1_000_000_000_000_000))])
        while true {
            takeCommandsWhileDisconnected()
            if shutdownRequested { return machine.shutdownRequested() }
            let now = ContinuousClock.now
            if now >= until { return machine.backOffElapsed(at: now) }
            mailbox.wait(socket: nil, timeout: until - now)
        }
    }

    private func takeCommandsWhileDisconnected() {
        for command in mailbox.drain() {
            switch command {
            case .publish(let messages, let mandatory, let waiter):
                enqueue(messages, mandatory: mandatory, waiter: waiter)
            case .settle(let tag, let settlement, let waiter):
                let error = staleError(tag, settlement)
                waiter?.resume(throwing: error)
            case .consume, .admin:
                if shutdownRequested { command.fail(Self.shutdownError("connect")) } else { deferred.append(command) }
            case .cancel(let tag, let waiter):
                consumers.removeValue(forKey: tag)?.stream.finish()
                deferred.removeAll { deferredCommand in
                    guard case .consume(let spec, _, _) = deferredCommand, spec.tag == tag else { return false }
                    deferredCommand.fail(Self.shutdownError("basic.consume"))
                    return true
                }
                waiter?.resume()
            case .shutdown:
                shutdownRequested = true
            }
        }
    }

    /// Opens the connection and its channels, declares the topology and
    /// re-subscribes the consumers that survived the previous connection.
    private func connect() throws(AMQPError) {
        let (candidate, url) = try openFirstAnswering()
        // The encoder's first-time runtime work, before anything is published (`warmUpBatchEncoder`), one
        // connection thread at a time: under ThreadSanitizer, connection threads entering the runtime's
        // first-time generic metadata work together were seen to spin in `once_slow` for good.
        herald_amqp_encoder_warmup_lock()
        candidate.warmUpBatchEncoder()
        herald_amqp_encoder_warmup_unlock()
        try candidate.openChannel(Self.publishChannel)
        try candidate.confirmSelect(Self.publishChannel)
        try candidate.openChannel(Self.consumeChannel)
        try candidate.openChannel(Self.adminChannel)
        adminChannelOpen = true
        if let topology { try TopologyDeclarer.declare(topology, on: candidate, channel: Self.adminChannel) }
        for registration in consumers.values.sorted(by: { $0.spec.tag < $1.spec.tag }) {
            if let gone = try checkQueueExists(registration.spec.queue, on: candidate) {
                consumers[registration.spec.tag] = nil
                registration.stream.finish(throwing: gone)
                continue
            }
            try candidate.qos(Self.consumeChannel, prefetch: registration.spec.prefetch)
            _ = try candidate.consume(
                Self.consumeChannel, queue: registration.spec.queue, tag: registration.spec.tag,
                arguments: registration.spec.arguments)
        }
        generation += 1
        blocked = false
        connection = candidate
        confirms.reset()
        status.connected(generation: generation, node: url.node)
        logger.info(
            "amqp connected",
            [
                "url": .string(url.description), "connection": .int(Int(generation)),
                "heartbeat_s": .int(candidate.heartbeatSeconds), "consumers": .int(consumers.count),
            ])
    }

    /// Opens a connection to the first of the broker's addresses that answers,
    /// trying each once in turn with its own TLS files; throws the last
    /// address's failure when none does.
    private func openFirstAnswering() throws(AMQPError) -> (RabbitConnection, AMQPURL) {
        var lastError = AMQPError(
            .library, operation: "connect", detail: "no broker address is configured", isRetryable: false)
        for (index, address) in addresses.inTurn {
            let url = address.url
            do throws(AMQPError) {
                let candidate = try RabbitConnection.open(configuration, address: address)
                addresses.connected(to: index)
                return (candidate, url)
            } catch {
                logger.warning(
                    "amqp connect failed", ["error": .string(error.description), "url": .string(url.description)])
                lastError = error
            }
        }
        throw lastError
    }

    /// Forgets the dead connection: unconfirmed publishes fail retryably, deliveries become stale.
    private func tearDown(_ error: AMQPError) {
        connection?.destroy()
        connection = nil
        status.disconnected()
        let unconfirmed = confirms.removeAll()
        logger.warning(
            "amqp connection lost",
            [
                "error": .string(error.description), "connection": .int(Int(generation)),
                "unconfirmed": .int(unconfirmed.count),
                "unsettled_deliveries": .int(deliveries.count),
            ])
        let failure = AMQPError(
            .connectionLost, operation: "basic.publish",
            detail: "connection lost before the broker confirmed (\(error.detail)); publish again",
            isRetryable: true)
        for waiter in unconfirmed { waiter.resume(throwing: failure) }
        failPendingAcks(error)
        deliveries.removeAll()
        assemblers.removeAll()
    }

    /// Final stop: close politely, fail whatever still waits, end the consumer streams.
    private func stop(_ failure: AMQPError?) {
        connection?.close()
        connection = nil
        let error = failure ?? Self.shutdownError("basic.publish")
        failPendingAcks(error)
        for waiter in confirms.removeAll() { waiter.resume(throwing: error) }
        while outboxHead < outbox.count {
            outbox[outboxHead].waiter.resume(throwing: error)
            outboxHead += 1
        }
        outbox.removeAll()
        for command in deferred + mailbox.close() { command.fail(failure ?? Self.shutdownError("connection")) }
        deferred.removeAll()
        for registration in consumers.values {
            if let failure { registration.stream.finish(throwing: failure) } else { registration.stream.finish() }
        }
        consumers.removeAll()
        status.stopped(failure)
        if let failure {
            logger.error("amqp connection stopped", ["error": .string(failure.description)])
        } else {
            logger.info("amqp connection closed")
        }
    }

    static func shutdownError(_ operation: String) -> AMQPError {
        AMQPError(.shutdown, operation: operation, detail: "the AMQP connection is shutting down", isRetryable: true)
    }

    func staleError(_ tag: DeliveryTag, _ settlement: Settlement) -> AMQPError {
        logger.warning(
            "amqp settlement of stale delivery ignored",
            [
                "delivery": .string(tag.description),
                "connection": .int(Int(generation)),
            ])
        return AMQPError(
            .staleDelivery, operation: "\(settlement.name) \(tag)",
            detail: "delivered on connection \(tag.connection), now \(generation); the broker redelivers it",
            isRetryable: false)
    }
}

/// A live subscription as the connection thread sees it.
final class ConsumerRegistration {
    let spec: ConsumerSpec
    let stream: AsyncThrowingStream<AMQPDelivery, any Error>.Continuation

    init(spec: ConsumerSpec, stream: AsyncThrowingStream<AMQPDelivery, any Error>.Continuation) {
        self.spec = spec
        self.stream = stream
    }
}
