import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldRegistry

/// Carries one registry command from its queue to the registry: decode and
/// check it (`RegistryCommand`), apply it in one transaction, publish its one
/// result to the results exchange, and only once the broker has confirmed
/// that result say the command may be acked. Nothing is lost:
///
/// - a command refused (bad JSON, an unknown app or provider, a sender
///   that is not one of the app's registry publishers, a channel name, a
///   limit) gets a `registry_rejected` result and is published to the
///   dead-letter exchange with the reason in `x-herald-error`, in one batch,
///   then acked — as `EventProcessor` parks a poison event;
/// - a registry that cannot be reached (`RegistryError.isRetryable`) leaves
///   the command unacked: it is requeued after ``retryPause``, so a database
///   that is down is not asked again in a loop;
/// - a result that cannot be published requeues the command, which is
///   applied again (commands are idempotent: a second register finds the
///   memberships `unchanged`).
final class RegistryCommandProcessor: Sendable {
    /// Commands in flight per instance: they are applied one at a time, in
    /// queue order, while the results of those applied are confirmed.
    static let prefetch: UInt16 = 32
    /// How long a command the registry could not take is held before it is requeued.
    static let retryPause: Duration = .seconds(1)

    let store: any RegistryStore
    let rules: RegistryCommand.Rules
    let topology: TopologyOptions
    let connection: AMQPConnection
    let metrics: HeraldMetrics
    let logger: Logger
    let clock: @Sendable () -> Timestamp

    init(
        store: any RegistryStore, rules: RegistryCommand.Rules, topology: TopologyOptions, connection: AMQPConnection,
        metrics: HeraldMetrics, logger: Logger, clock: @escaping @Sendable () -> Timestamp
    ) {
        self.store = store
        self.rules = rules
        self.topology = topology
        self.connection = connection
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// Applies `delivery`'s command and calls `finish` with the verdict once
    /// the broker has settled what it published — on the connection's
    /// thread — or, when the registry could not be reached, after the pause.
    func process(_ delivery: AMQPDelivery, finish: @escaping @Sendable (DeliveryVerdict) -> Void) async {
        let now = clock()
        let command: RegistryCommand
        do {
            command = try RegistryCommand.decode(
                delivery.body, routingKey: delivery.routingKey, fallbackID: delivery.messageID,
                rules: rules, sender: .amqp(userID: delivery.publisher(herald: topology.userID)))
        } catch {
            return reject(delivery, because: error, at: now, finish: finish)
        }
        let operation = command.kind.rawValue
        let started = ContinuousClock.now
        var result: RegistryResult
        do {
            result = try await command.apply(to: store, at: now)
            metrics.registryOperations.labels(operation, "ok").increment()
            metrics.registryOperationDuration.labels(operation).observe(ContinuousClock.now - started)
        } catch  where error.isRetryable {
            metrics.registryOperations.labels(operation, "error").increment()
            logger.warning(
                "registry command not settled: the registry cannot take it; the broker will redeliver it",
                [
                    "command": .string(operation), "command_id": .string(command.id ?? ""),
                    "app": .string(command.device.app),
                    "token": .token(command.device.address.value), "error": .string("\(error)"),
                ])
            try? await Task.sleep(for: Self.retryPause)
            return finish(.requeue(reason: "\(error)"))
        } catch {
            metrics.registryOperations.labels(operation, "error").increment()
            return reject(delivery, because: command.refusal(error), at: now, finish: finish)
        }
        result.redelivered = delivery.redelivered
        let status = result.status.rawValue
        connection.publish([message(for: result)]) { [self] failure in
            guard let failure else {
                metrics.registryCommands.labels(operation, status).increment()
                return finish(.ack)
            }
            logger.warning(
                "registry command not settled: publishing its result failed; the broker will redeliver it",
                [
                    "command": .string(operation), "command_id": .string(command.id ?? ""),
                    "error": .string("\(failure)"),
                ])
            finish(.requeue(reason: "\(failure)"))
        }
    }

    /// Publishes the `registry_rejected` result and the dead letter together,
    /// then acks; should AMQP be unable to carry them, the command is
    /// rejected without requeue, which the queue dead-letters itself.
    private func reject(
        _ delivery: AMQPDelivery, because error: RegistryCommandError, at now: Timestamp,
        finish: @escaping @Sendable (DeliveryVerdict) -> Void
    ) {
        var result = RegistryResult.rejected(
            error, body: delivery.body, routingKey: delivery.routingKey,
            fallbackID: delivery.messageID, providers: rules.providers, at: now)
        result.redelivered = delivery.redelivered
        let reason = "registry command refused: \(error)"
        logger.warning(
            "registry command refused",
            [
                "command": .string(delivery.routingKey), "command_id": .string(result.commandID ?? ""),
                "app": .string(result.app ?? "unknown"), "token": .token(result.address?.value ?? ""),
                "error": .string("\(error)"),
            ])
        let command = RegistryCommand.Kind(rawValue: delivery.routingKey)?.rawValue ?? "unknown"
        let status = result.status.rawValue
        let deadLetter = RetryRouting.deadLetterMessage(for: delivery, error: reason, topology: topology)
        connection.publish([message(for: result), deadLetter]) { [self] failure in
            switch failure {
            case nil:
                metrics.registryCommands.labels(command, status).increment()
                metrics.deadLettered.labels("registry_rejected").increment()
                finish(.ack)
            case let failure? where failure.code == .invalidMessage:
                finish(.reject(reason: reason))
            case let failure?:
                finish(.requeue(reason: "\(failure)"))
            }
        }
    }

    /// The result as published: persistent JSON, its `message-id` the command's id.
    private func message(for result: RegistryResult) -> AMQPMessage {
        topology.resultMessage(routingKey: result.routingKey, body: result.encoded, answering: result.commandID)
    }
}
