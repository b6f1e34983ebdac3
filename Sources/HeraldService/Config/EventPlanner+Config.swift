import HeraldConfig
import HeraldCore
import HeraldPipeline
import HeraldProviders

// The config mapped onto the pipeline: HeraldPipeline knows no config, so the
// service, which holds both, builds its planner and policies from the settings.

extension EventPlanner {
    /// The planner for a loaded config: its routes, each app's providers, its
    /// retry policy, and the events publishers of each app that lists them
    /// (with `ownUsers`, the AMQP users Herald itself connects as: its
    /// retries come back as events carrying that `user-id`). Events are
    /// decoded with `providers`' rules, the registered providers unless told.
    public init(
        config: LoadedConfig, limits: EventLimits = .default, ownUsers: [String] = [],
        providers: ProviderCatalog = .registered
    ) {
        var apps: [String: Set<Provider>] = [:]
        for (name, app) in config.configuration.apps {
            apps[name] = Set(app.configuredProviders)
        }
        let publishers = config.configuration.publishers(\.events, ownUsers: ownUsers)
        self.init(
            router: config.router, apps: apps, providers: providers, limits: limits,
            retryPolicy: RetryPolicy(settings: config.configuration.retry), publishers: publishers)
    }
}

extension RetryPolicy {
    /// The policy of the config's `retry:` section.
    public init(settings: RetrySettings) {
        self.init(maxAttempts: settings.maxAttempts, delays: settings.delays.map(\.duration))
    }
}

extension InvalidationGuard.Policy {
    /// The policy of `outcomes.invalidation_guard`.
    public init(settings: InvalidationGuardSettings) {
        self.init(
            enabled: settings.enabled, minAnswers: settings.minAnswers, share: settings.share,
            window: settings.window.duration)
    }
}
