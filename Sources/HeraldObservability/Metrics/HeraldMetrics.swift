/// The metrics Herald exports (docs/metrics.md lists them with their labels),
/// registered once and handed to the components that update them.
public struct HeraldMetrics: Sendable {
    public let registry: MetricsRegistry
    /// Events taken off the queue, by the first word of their routing key.
    public let eventsConsumed: MetricFamily<Counter>
    /// One per target outcome: `provider`, `app`, `status`.
    public let notifications: MetricFamily<Counter>
    public let retries: MetricFamily<Counter>
    /// Requests sent again at once because their answer was lost (`apps.*.timeout_retries`).
    public let timeoutRetries: MetricFamily<Counter>
    /// Messages sent to the dead-letter queue, by reason class (`rejected`, `retries_exhausted`).
    public let deadLettered: MetricFamily<Counter>
    public let providerRequestDuration: MetricFamily<Histogram>
    /// From consume to ack.
    public let eventDuration: MetricFamily<Histogram>
    public let inflightEvents: MetricFamily<Gauge>
    public let inflightRequests: MetricFamily<Gauge>
    public let amqpConnected: MetricFamily<Gauge>
    public let amqpNode: MetricFamily<Gauge>
    public let consumerActive: MetricFamily<Gauge>
    /// Provider-token (APNs JWT) and access-token (FCM OAuth) refreshes, by `result` (`success`, `failure`).
    public let tokenRefreshes: MetricFamily<Counter>
    public let outcomesPublished: MetricFamily<Counter>
    /// 1 while the invalidation guard holds back an app's suspect invalid-token answers.
    public let invalidationGuardTripped: MetricFamily<Gauge>
    /// Invalid-token answers the guard reported as `failed` instead.
    public let invalidationsHeldBack: MetricFamily<Counter>
    public let buildInfo: MetricFamily<Gauge>
    /// Registry calls by `operation` (`expand`, `prune`, `register`, ...) and `result` (`ok`, `error`).
    public let registryOperations: MetricFamily<Counter>
    public let registryOperationDuration: MetricFamily<Histogram>
    /// Devices one channel target reached (after de-duplication).
    public let channelExpansionSize: MetricFamily<Histogram>
    /// Devices removed from the registry after an `invalid_token` answer.
    public let registryPrunes: MetricFamily<Counter>
    /// Registrations (memberships) per app, sampled.
    public let registrations: MetricFamily<Gauge>
    /// Registry commands settled, by `command` (`register`, ..., `unknown`) and `result` (`registered`, ..., `registry_rejected`).
    public let registryCommands: MetricFamily<Counter>
    /// How long sends waited for a rate, by `limit` (`route:<name>`, `<provider>:<app>`): its sum is the time throttled.
    public let throttleWait: MetricFamily<Histogram>
    /// Pauses begun after a provider's quota answer and how long each is, by
    /// `provider`, `app` and `scope` (`app`: a project quota; `token`: one device's rate).
    public let providerPauses: MetricFamily<Histogram>
    /// Sends not made because their app or token was paused (retried later instead), by `provider` and `app`.
    public let pausedSends: MetricFamily<Counter>
    /// Events dropped as duplicates of one handled within `duplicate_window`.
    public let duplicateEvents: MetricFamily<Counter>

    public init(registry: MetricsRegistry = MetricsRegistry(), version: String) {
        self.registry = registry
        eventsConsumed = registry.counter(
            "herald_events_consumed_total", help: "Events consumed from the events queue.",
            labels: ["routing_key_class"])
        notifications = registry.counter(
            "herald_notifications_total", help: "Target outcomes by provider, app and status.",
            labels: ["provider", "app", "status"])
        retries = registry.counter(
            "herald_retries_total", help: "Targets scheduled for another attempt.",
            labels: ["provider", "app"])
        timeoutRetries = registry.counter(
            "herald_timeout_retries_total",
            help:
                "Provider requests sent again at once because their answer was lost (timeout, or connection lost after writing).",
            labels: ["provider", "app"])
        deadLettered = registry.counter(
            "herald_dead_lettered_total", help: "Messages sent to the dead-letter queue.",
            labels: ["reason"])
        providerRequestDuration = registry.histogram(
            "herald_provider_request_duration_seconds",
            help: "Time from sending a provider request to its answer.",
            labels: ["provider"])
        eventDuration = registry.histogram(
            "herald_event_duration_seconds", help: "Time from consuming an event to acking it.",
            buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30])
        inflightEvents = registry.gauge("herald_inflight_events", help: "Events consumed and not yet acked.")
        inflightRequests = registry.gauge(
            "herald_inflight_requests", help: "Provider requests awaiting an answer.",
            labels: ["provider"])
        amqpConnected = registry.gauge("herald_amqp_connected", help: "1 while connected to the broker.")
        amqpNode = registry.gauge(
            "herald_amqp_node", help: "1 for the broker node connected to now, 0 for nodes connected to before.",
            labels: ["node"])
        consumerActive = registry.gauge("herald_consumer_active", help: "1 while consuming the events queue.")
        tokenRefreshes = registry.counter(
            "herald_token_refreshes_total", help: "Provider credential refreshes.",
            labels: ["provider", "result"])
        outcomesPublished = registry.counter(
            "herald_outcomes_published_total",
            help: "Outcomes published to the results exchange and confirmed.",
            labels: ["status"])
        invalidationGuardTripped = registry.gauge(
            "herald_invalidation_guard_tripped",
            help:
                "1 while suspect invalid-token answers of an app and provider are held back (credential or environment mismatch suspected).",
            labels: ["provider", "app"])
        invalidationsHeldBack = registry.counter(
            "herald_invalidations_held_back_total",
            help:
                "Invalid-token answers reported as failed by the invalidation guard instead of invalidating the token.",
            labels: ["provider", "app"])
        registryOperations = registry.counter(
            "herald_registry_operations_total", help: "Device registry calls.",
            labels: ["operation", "result"])
        registryOperationDuration = registry.histogram(
            "herald_registry_operation_duration_seconds",
            help: "Time a device registry call took.", labels: ["operation"])
        channelExpansionSize = registry.histogram(
            "herald_channel_expansion_devices", help: "Devices one channel target reached.",
            buckets: [1, 2, 5, 10, 50, 100, 1000, 10_000, 100_000, 1_000_000])
        registryPrunes = registry.counter(
            "herald_registry_prunes_total",
            help: "Devices removed from the registry after an invalid_token answer.",
            labels: ["provider", "app"])
        registrations = registry.gauge(
            "herald_registrations", help: "Registrations (device-channel memberships) per app, sampled.",
            labels: ["app"])
        registryCommands = registry.counter(
            "herald_registry_commands_total",
            help: "Registry commands applied or refused, their result published and confirmed.",
            labels: ["command", "result"])
        throttleWait = registry.histogram(
            "herald_throttle_wait_seconds",
            help: "Time a send waited for a route's rate or an app's provider throttle.",
            labels: ["limit"], buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60])
        providerPauses = registry.histogram(
            "herald_provider_pause_seconds",
            help: "Pauses begun after a provider's quota answer (an app's sends, or one token's), by length.",
            labels: ["provider", "app", "scope"], buckets: [1, 5, 10, 30, 60, 120, 300, 600])
        pausedSends = registry.counter(
            "herald_paused_sends_total",
            help: "Sends held back by a pause and retried later instead.", labels: ["provider", "app"])
        duplicateEvents = registry.counter(
            "herald_duplicate_events_total",
            help: "Events dropped as duplicates of one already handled within duplicate_window.")
        buildInfo = registry.gauge(
            "herald_build_info", help: "Always 1; the version label tells which Herald runs.",
            labels: ["version"])
        buildInfo.labels(version).set(1)
        ProcessMetrics.register(on: registry)
    }
}
