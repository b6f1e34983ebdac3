import HeraldConfig
import HeraldCore
import HeraldProviders
import HeraldRegistry

extension LoadedConfig {
    /// The device registry the `registry:` section describes (nothing is
    /// opened until its first call); nil without the section.
    public func registryStore() throws(RegistryError) -> (any RegistryStore)? {
        guard let settings = configuration.registry else { return nil }
        switch settings.backend {
        case .sqlite:
            return try SQLiteRegistryStore(path: resolve(settings.path ?? ""), providers: .registered)
        case .postgres:
            return try PostgresRegistryStore(url: settings.url ?? "", providers: .registered, poolSize: settings.pool ?? RegistrySettings.defaultPool)
        }
    }

    /// What registry commands (AMQP and `herald registry`) are checked
    /// against: the config's apps, each with the providers it has credentials
    /// for, and the limits the store above enforces.
    public var registryRules: RegistryCommand.Rules {
        RegistryCommand.Rules(apps: configuration.apps.mapValues { Set($0.configuredProviders) }, providers: .registered)
    }
}
