import HeraldConfig
import HeraldCore
import HeraldProviders
import HeraldRegistry

extension LoadedConfig {
    /// The device registry the `registry:` section describes (nothing is
    /// opened until its first call); nil without the section.
    public func registryStore() throws(RegistryError) -> (any RegistryStore)? {
        guard let settings = configuration.registry else { return nil }
        let dialect: RegistryDialect =
            switch settings.backend {
            case .sqlite: try .sqlite(path: resolve(settings.path ?? ""))
            case .postgres:
                try .postgres(url: settings.url ?? "", poolSize: settings.pool ?? RegistrySettings.defaultPool)
            }
        return try SQLRegistryStore(dialect, providers: .registered, limits: registryLimits)
    }

    /// The store's limits: the defaults, with the `registry:` section's
    /// `max_registrations_per_app` and `max_devices_per_channel`.
    public var registryLimits: RegistryLimits {
        var limits = RegistryLimits.default
        if let settings = configuration.registry {
            limits.maxRegistrationsPerApp = settings.maxRegistrationsPerApp
            limits.maxDevicesPerChannel = settings.maxDevicesPerChannel
        }
        return limits
    }

    /// `registry.expire_after`: how long a device may go without a register
    /// before `herald run` retires it; nil (the default, or no registry) keeps devices.
    public var registryExpireAfter: Duration? {
        configuration.registry?.expireAfter?.duration
    }

    /// What registry commands (AMQP and `herald registry`) are checked
    /// against: the config's apps, each with the providers it has credentials
    /// for, its registry publishers and its devices' allowed topics, and the
    /// limits the store above enforces.
    public var registryRules: RegistryCommand.Rules {
        var topics: [String: Set<String>] = [:]
        for (name, app) in configuration.apps {
            let allowed = app.orderedSections.compactMap(\.deviceTopics)
            if !allowed.isEmpty { topics[name] = allowed.reduce(into: Set()) { $0.formUnion($1) } }
        }
        return RegistryCommand.Rules(
            apps: configuration.apps.mapValues { Set($0.configuredProviders) }, providers: .registered,
            limits: registryLimits, publishers: configuration.publishers(\.registry, ownUsers: amqpUsers),
            topics: topics)
    }
}
