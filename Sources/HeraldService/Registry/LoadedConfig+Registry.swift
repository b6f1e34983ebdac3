import HeraldConfig
import HeraldRegistry

extension LoadedConfig {
    /// The device registry the `registry:` section describes (nothing is
    /// opened until its first call); nil without the section.
    public func registryStore() throws(RegistryError) -> (any RegistryStore)? {
        guard let settings = configuration.registry else { return nil }
        switch settings.backend {
        case .sqlite:
            return try SQLiteRegistryStore(path: resolve(settings.path ?? ""))
        case .postgres:
            return try PostgresRegistryStore(url: settings.url ?? "", poolSize: settings.pool ?? RegistrySettings.defaultPool)
        }
    }
}
