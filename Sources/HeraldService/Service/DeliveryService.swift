import Glibc
import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry
import HeraldSystem
import Synchronization

/// `herald run`: consumes the events queue and turns every event into
/// confirmed outcomes, retries and dead letters, until asked to stop.
///
/// Lifecycle: `run()` starts the providers' HTTP/2 clients, the AMQP
/// connection (which retries with back-off while the broker is down; `/readyz`
/// says so), the metrics endpoint and the consumer. `shutdown()` stops
/// consuming, lets the events in flight finish for at most
/// `shutdown_deadline`, acks what finished and leaves the rest to the broker's
/// redelivery; then `run()` returns.
public final class DeliveryService: Sendable {
    public let config: LoadedConfig
    public let metrics: HeraldMetrics
    public let health: HealthState
    private let logger: Logger
    private let clock: @Sendable () -> Timestamp
    private let stop = ShutdownSignal()
    private let boundPort = Locked<Int?>(nil)
    /// Set when `shutdown_deadline` has passed: received events not yet started are left unstarted.
    private let drainDeadlinePassed = Atomic<Bool>(false)

    public init(
        config: LoadedConfig, logger: Logger, metrics: HeraldMetrics? = nil,
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.config = config
        self.logger = logger
        self.metrics = metrics ?? HeraldMetrics(version: HeraldVersion.current)
        self.health = HealthState()
        self.clock = clock
    }

    /// Asks `run()` to stop consuming and drain; safe from any thread, idempotent.
    public func shutdown() { stop.trigger() }

    /// The port `/metrics` listens on, once `run()` has started it (useful with port 0).
    public var metricsPort: Int? { boundPort.withLock { $0 } }

    public func run() async throws {
        let settings = config.configuration
        let amqpConfiguration = try config.amqpConfiguration()
        let refreshes = metrics.tokenRefreshes
        let providers = ProviderSet.make(config: config, logger: logger) { provider, succeeded in
            refreshes.labels(provider.rawValue, succeeded ? "success" : "failure").increment()
        }
        metrics.registry.collect { providers.poolMetrics() }
        if !providers.unavailable.isEmpty && settings.unusableCredentials == .exit {
            throw ProviderSet.UnusableCredentialsError(reasons: providers.unavailable)
        }
        health.set("amqp_connected", false)
        health.set("consumer_active", false)
        for (key, _) in ProviderSet.inOrder(providers.unavailable) {
            health.set(key.readinessCondition, false)
        }
        // The registry's schema is brought up to date before any event is taken:
        // a registry that cannot be migrated stops Herald with the reason.
        let registry = try config.registryStore()
        defer { registry?.close() }
        if let registry {
            let applied = try await registry.migrate()
            if !applied.isEmpty {
                logger.notice(
                    "registry migrated", ["versions": .string(applied.map(String.init).joined(separator: ","))])
            }
            health.set("registry", true)
        }
        var server: ObservabilityServer?
        if let (host, port) = settings.http.hostAndPort {
            let started = try ObservabilityServer(host: host, port: port, metrics: metrics.registry, health: health)
            boundPort.withLock { $0 = started.port }
            server = started
        }
        defer { server?.close() }

        let connection = try AMQPConnection(
            configuration: amqpConfiguration, topology: config.topology,
            logger: logger.child("amqp"))
        let processor = EventProcessor(
            EventProcessor.Dependencies(
                planner: EventPlanner(config: config, ownUsers: config.amqpUsers), providers: providers,
                retryPolicy: RetryPolicy(settings: settings.retry),
                publishStatuses: Set(settings.outcomes.publish.compactMap(Outcome.Status.init(rawValue:))),
                topology: config.topology, publisher: connection, invalidationGuard: makeInvalidationGuard(),
                registry: registry, traffic: TrafficControl(configuration: settings, metrics: metrics),
                duplicates: settings.duplicateWindow.milliseconds > 0
                    ? DuplicateWindow(
                        window: settings.duplicateWindow.duration, shared: registry, logger: logger,
                        clock: clock)
                    : nil,
                metrics: metrics, logger: logger, clock: clock,
                newID: { "herald-" + String(SharedIdentifierRandom.shared.next(), radix: 16) }))
        // Registry commands have a consumer of their own, so a burst of events never holds up a registration.
        let commands = registry.flatMap { store in
            config.topology.registryCommands.map { topology in
                (
                    queue: topology.queue,
                    processor: RegistryCommandProcessor(
                        store: store, rules: config.registryRules, topology: config.topology, connection: connection,
                        metrics: metrics, logger: logger, clock: clock)
                )
            }
        }
        if commands != nil { health.set("registry_consumer_active", false) }
        logger.notice(
            "herald starting",
            [
                "queue": .string(settings.amqp.queue), "prefetch": .int(settings.amqp.prefetch),
                "apps": .int(settings.apps.count),
            ])

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await providers.run() }
            group.addTask { try await connection.run() }
            group.addTask { await self.watchConnection(connection) }
            if let registry { group.addTask { await self.sampleRegistrations(registry) } }
            if let registry, let expireAfter = config.registryExpireAfter {
                let retirement = DeviceRetirement(
                    store: registry, expireAfter: expireAfter, connection: connection, topology: config.topology,
                    metrics: metrics, logger: logger, clock: clock)
                group.addTask { await self.retireUnseenDevices(retirement) }
            }
            if let duplicates = processor.dependencies.duplicates, duplicates.isShared {
                group.addTask { await self.forgetExpiredEventIDs(duplicates) }
            }
            group.addTask {
                // Whichever consumer ends first stops the other (`stop`); both drain before the connection goes.
                try await withThrowingTaskGroup(of: Void.self) { consumers in
                    consumers.addTask { try await self.consume(connection: connection, processor: processor) }
                    if let commands {
                        consumers.addTask {
                            try await self.consumeCommands(
                                queue: commands.queue, connection: connection, processor: commands.processor)
                        }
                    }
                    var failure: (any Error)?
                    while let finished = await consumers.nextResult() {
                        if case .failure(let error) = finished, failure == nil {
                            failure = error
                            self.stop.trigger()
                        }
                    }
                    // Consuming is over: stop the rest.
                    connection.shutdown()
                    providers.shutdown()
                    if let failure { throw failure }
                }
            }
            do {
                while (try await group.next()) != nil {}
            } catch {
                stop.trigger()
                connection.shutdown()
                providers.shutdown()
                group.cancelAll()
                throw error
            }
        }
        logger.notice("herald stopped")
    }

    /// The guard of `outcomes.invalidation_guard`, reporting to the log and `/metrics`.
    private func makeInvalidationGuard() -> InvalidationGuard {
        let policy = InvalidationGuard.Policy(settings: config.configuration.outcomes.invalidationGuard)
        return InvalidationGuard(policy: policy) { [logger, metrics] report in
            switch report {
            case .tripped(let key, let suspect, let answers):
                metrics.invalidationGuardTripped.labels(key.provider.rawValue, key.app).set(true)
                logger.error(
                    "invalidation guard tripped: invalid-token answers are reported as failed, tokens are kept",
                    [
                        "app": .string(key.app), "provider": .string(key.provider.rawValue),
                        "suspect_answers": .int(suspect),
                        "answers": .int(answers), "window": .string("\(policy.window)"),
                        "hint":
                            "a credential or environment mismatch is suspected: check the app's environment, topic or project",
                    ])
            case .cleared(let key):
                metrics.invalidationGuardTripped.labels(key.provider.rawValue, key.app).set(false)
                logger.notice(
                    "invalidation guard cleared: invalid-token answers are reported again",
                    ["app": .string(key.app), "provider": .string(key.provider.rawValue)])
            case .heldBack(let key):
                metrics.invalidationsHeldBack.labels(key.provider.rawValue, key.app).increment()
            }
        }
    }

    /// Keeps `herald_registrations{app}` current (every 30 s) and the
    /// `registry` readiness condition with it, until shutdown.
    private func sampleRegistrations(_ registry: any RegistryStore) async {
        await stop.repeatUntilTriggered(every: .seconds(30)) {
            var reachable = true
            for app in config.configuration.apps.keys.sorted() {
                do {
                    metrics.registrations.labels(app).set(try await registry.count(app: app, channel: nil))
                } catch {
                    reachable = false
                    logger.warning("the registry cannot be reached", ["error": .string("\(error)")])
                    break
                }
            }
            health.set("registry", reachable)
        }
    }

    /// Retires the devices not registered for `registry.expire_after`, every
    /// ``DeviceRetirement/period`` until shutdown (the first run once the broker is connected).
    private func retireUnseenDevices(_ retirement: DeviceRetirement) async {
        guard await brokerConnected(retirement.connection) else { return }
        await stop.repeatUntilTriggered(every: retirement.period) {
            await retirement.run(stopping: { [stop] in stop.isTriggered })
        }
    }

    /// Deletes the event ids whose duplicate window is over from the registry
    /// database, every minute until shutdown.
    private func forgetExpiredEventIDs(_ duplicates: DuplicateWindow) async {
        await stop.repeatUntilTriggered(every: .seconds(60)) {
            await duplicates.forgetExpired(now: clock())
        }
    }

    /// Keeps `/readyz` and the connection gauges current until shutdown.
    private func watchConnection(_ connection: AMQPConnection) async {
        var shownNode: String?
        await stop.repeatUntilTriggered(every: .milliseconds(200)) {
            let connected = connection.isConnected
            let node = connection.connectedNode
            health.set("amqp_connected", connected, detail: node)
            metrics.amqpConnected.labels().set(connected)
            if node != shownNode, let node {
                if let shownNode { metrics.amqpNode.labels(shownNode).set(false) }
                metrics.amqpNode.labels(node).set(true)
                shownNode = node
            }
        }
        health.set("consumer_active", false)
        metrics.consumerActive.labels().set(false)
    }

    private func consume(connection: AMQPConnection, processor: EventProcessor) async throws {
        let settings = config.configuration
        guard await brokerConnected(connection) else { return }
        let consumer = try await connection.consume(
            queue: settings.amqp.queue, prefetch: UInt16(clamping: settings.amqp.prefetch),
            arguments: config.topology.eventsConsumerArguments)
        health.set("consumer_active", true)
        metrics.consumerActive.labels().set(true)
        logger.notice("consuming", ["queue": .string(settings.amqp.queue)])

        let inflight = metrics.inflightEvents.labels()
        let slots = EventSlots(limit: settings.amqp.effectiveConcurrency)
        var deadlineTimer: Task<Void, any Error>?
        // Set when the consumer ended without a shutdown (the broker cancelled it).
        var consumerFailure: (any Error)?
        // A discarding group: finished event tasks are freed at once (a plain task
        // group keeps every finished child until it is awaited).
        await withDiscardingTaskGroup { work in
            work.addTask {
                await self.stop.wait()
                // No new deliveries; those already received are finished below.
                try? await connection.cancel(consumer)
            }
            do {
                for try await delivery in consumer.deliveries {
                    let started = ContinuousClock.now
                    inflight.increment()
                    await slots.acquire()
                    if drainDeadlinePassed.load(ordering: .acquiring) {
                        // Not started, and nothing can be acked any more: the broker redelivers it.
                        inflight.decrement()
                        slots.release()
                        continue
                    }
                    work.addTask {
                        // The task ends once the event's messages are handed to the
                        // connection; the event ends when the broker has settled them.
                        await processor.process(delivery) { verdict in
                            self.settle(delivery, verdict, connection: connection)
                            self.metrics.eventDuration.labels().observe(ContinuousClock.now - started)
                            inflight.decrement()
                            slots.release()
                        }
                    }
                }
            } catch {
                consumerFailure = brokerStopped(
                    "the broker stopped the consumer: draining, then exiting with an error so a supervisor restarts Herald",
                    error)
            }
            stop.trigger()
            health.set("consumer_active", false)
            metrics.consumerActive.labels().set(false)
            deadlineTimer = startDrainDeadline(connection: connection, providers: processor.dependencies.providers)
            // The group now waits for the events being delivered.
        }
        // ...and this for the broker to settle their messages (a connection shut
        // down at the deadline fails what is left, which frees the slots too).
        await slots.waitUntilAllFree()
        deadlineTimer?.cancel()
        if let consumerFailure { throw consumerFailure }
    }

    /// Consumes the registry commands queue until shutdown: one command at a
    /// time, in queue order (a register followed by an unregister of the same
    /// device is applied in that order), each acked from its result's confirm
    /// while the next is applied. A broker-side cancel stops Herald as the
    /// events consumer's does.
    private func consumeCommands(queue: String, connection: AMQPConnection, processor: RegistryCommandProcessor)
        async throws
    {
        guard await brokerConnected(connection) else { return }
        let consumer = try await connection.consume(
            queue: queue, prefetch: RegistryCommandProcessor.prefetch,
            arguments: config.topology.eventsConsumerArguments)
        health.set("registry_consumer_active", true)
        logger.notice("consuming registry commands", ["queue": .string(queue)])
        // Commands whose result is not yet settled; at shutdown their acks are awaited.
        let unsettled = EventSlots(limit: Int(RegistryCommandProcessor.prefetch))
        var consumerFailure: (any Error)?
        await withDiscardingTaskGroup { group in
            group.addTask {
                await self.stop.wait()
                try? await connection.cancel(consumer)
            }
            do {
                for try await delivery in consumer.deliveries {
                    await unsettled.acquire()
                    await processor.process(delivery) { verdict in
                        self.settle(delivery, verdict, connection: connection)
                        unsettled.release()
                    }
                }
            } catch {
                consumerFailure = brokerStopped(
                    "the broker stopped the registry commands consumer: draining, then exiting with an error so a supervisor restarts Herald",
                    error)
            }
            stop.trigger()
            health.set("registry_consumer_active", false)
        }
        await unsettled.waitUntilAllFree()
        if let consumerFailure { throw consumerFailure }
    }

    /// Waits for the broker, or for a shutdown while it is still away (the
    /// connection is looked at every 100 ms: its own wait cannot be
    /// cancelled); false after a shutdown.
    private func brokerConnected(_ connection: AMQPConnection) async -> Bool {
        while !connection.isConnected {
            if stop.isTriggered { return false }
            await stop.wait(atMost: .milliseconds(100))
        }
        return !stop.isTriggered
    }

    /// A consumer's stream ended with `error`: the failure Herald exits with
    /// when the broker ended it (logged as `message`), nil when a shutdown did.
    private func brokerStopped(_ message: StaticString, _ error: any Error) -> (any Error)? {
        guard !stop.isTriggered else { return nil }
        logger.error(message, ["error": .string("\(error)")])
        return error
    }

    /// Events in flight get at most `shutdown_deadline` to finish; what is not
    /// done by then is left unacked, so the broker redelivers it. At the deadline
    /// the connection goes first (nothing more can be acked), then the providers,
    /// so events still waiting on an answer stop waiting.
    private func startDrainDeadline(connection: AMQPConnection, providers: ProviderSet) -> Task<Void, any Error> {
        let deadline = config.configuration.shutdownDeadline.duration
        let remaining = metrics.inflightEvents.labels().current
        if remaining > 0 {
            logger.notice("draining events in flight", ["events": .int(remaining), "deadline": .string("\(deadline)")])
        }
        return Task { [logger, self] in
            try await Task.sleep(for: deadline)
            logger.warning("shutdown deadline passed: unfinished events are left to redelivery")
            self.drainDeadlinePassed.store(true, ordering: .releasing)
            connection.shutdown()
            providers.shutdown()
        }
    }

    /// Queues the ack (or requeue) without waiting for it to be written: a
    /// failure could only be logged, and the connection logs it (a settlement
    /// lost with its connection means the broker redelivers the event).
    private func settle(_ delivery: AMQPDelivery, _ verdict: DeliveryVerdict, connection: AMQPConnection) {
        switch verdict {
        case .ack: connection.settleWithoutWaiting(delivery, .ack(multiple: false))
        case .requeue: connection.settleWithoutWaiting(delivery, .nack(multiple: false, requeue: true))
        case .reject: connection.settleWithoutWaiting(delivery, .nack(multiple: false, requeue: false))
        }
    }
}
