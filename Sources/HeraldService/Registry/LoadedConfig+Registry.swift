import HeraldConfig
import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldSystem

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
        return try SQLRegistryStore(
            dialect, providers: .registered, limits: registryLimits, secretKey: try registrySecretKey(settings))
    }

    /// The key of `registry.encryption_key` (base64) or
    /// `registry.encryption_key_file` (32 bytes, or their base64); nil for neither.
    func registrySecretKey(_ settings: RegistrySettings) throws(RegistryError) -> RegistrySecretKey? {
        if let text = settings.encryptionKey {
            do { return try RegistrySecretKey(base64: text) } catch {
                throw RegistryError(
                    .invalidInput, operation: "open", message: "registry.encryption_key: \(error.message)")
            }
        }
        guard let file = settings.encryptionKeyFile else { return nil }
        let path = resolve(file)
        let contents: BoundedFile
        do { contents = try BoundedFile(path: path, limit: .key) } catch {
            throw RegistryError(
                .invalidInput, operation: "open", message: "registry.encryption_key_file: \(error.description)")
        }
        do {
            if contents.bytes.count == RegistrySecretKey.size { return try RegistrySecretKey(bytes: contents.bytes) }
            return try RegistrySecretKey(base64: String(decoding: contents.bytes, as: UTF8.self))
        } catch {
            throw RegistryError(
                .invalidInput, operation: "open", message: "registry.encryption_key_file ('\(path)'): \(error.message)")
        }
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
    /// for, its registry publishers, its devices' allowed topics and the
    /// destinations its providers would send to (Web Push's egress rules),
    /// and the limits the store above enforces.
    public var registryRules: RegistryCommand.Rules {
        var topics: [String: Set<String>] = [:]
        var destinations: [String: [Provider: RegistryCommand.Rules.DestinationCheck]] = [:]
        for (name, app) in configuration.apps {
            let allowed = app.orderedSections.compactMap(\.deviceTopics)
            if !allowed.isEmpty { topics[name] = allowed.reduce(into: Set()) { $0.formUnion($1) } }
            for provider in app.configuredProviders {
                guard let section = app.sections[provider] else { continue }
                destinations[name, default: [:]][provider] = { address in section.registrationRefusal(address) }
            }
        }
        return RegistryCommand.Rules(
            apps: configuration.apps.mapValues { Set($0.configuredProviders) }, providers: .registered,
            limits: registryLimits, publishers: configuration.publishers(\.registry, ownUsers: amqpUsers),
            topics: topics, destinations: destinations)
    }
}
