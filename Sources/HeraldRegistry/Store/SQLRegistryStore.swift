import HeraldCore

/// The part of both stores that is the same: arguments checked here, then
/// the operation run on a pool thread with its connection. The backends
/// differ only in their SQL and connections (``SQLiteRegistryStore``,
/// ``PostgresRegistryStore``); this class is not subclassed outside Herald.
///
/// `@unchecked Sendable` because the class is not final (its two subclasses
/// are); its state is immutable and Sendable.
public class SQLRegistryStore: RegistryStore, @unchecked Sendable {
    public let limits: RegistryLimits
    private let pool: ConnectionPool
    private let operations: RegistryOperations
    private let migrator: Migrator
    private let validation: RegistryValidation

    /// The providers whose devices the store holds, with their rules.
    public let providers: ProviderCatalog

    init(sql: RegistrySQL, providers: ProviderCatalog, limits: RegistryLimits, poolSize: Int,
         open: @escaping @Sendable (String) throws(RegistryError) -> any SQLConnection) throws(RegistryError) {
        self.limits = limits
        self.providers = providers
        operations = RegistryOperations(sql: sql, limits: limits, catalog: providers)
        migrator = Migrator(sql: sql, operations: operations)
        validation = RegistryValidation(limits: limits, providers: providers)
        pool = try ConnectionPool(size: poolSize, open: open)
    }

    deinit { pool.close() }

    public func migrate() async throws(RegistryError) -> [Int] {
        let migrator = migrator
        return try await pool.run("migrate") { db throws(RegistryError) in try migrator.migrate(db) }
    }

    public func register(_ device: DeviceKey, channels: [String], environment: String?, topic: String?,
                         at time: Timestamp) async throws(RegistryError) -> [String: RegistryChange] {
        let operation = "register"
        try validation.device(device, operation)
        try validation.channels(channels, operation)
        try validation.overrides(environment: environment, topic: topic, provider: device.provider, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.register(db, device, channels: channels, environment: environment, topic: topic, at: time)
        }
    }

    public func unregister(_ device: DeviceKey, channels: [String]) async throws(RegistryError) -> RegistryChange {
        let operation = "unregister"
        try validation.device(device, operation)
        try validation.channels(channels, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.unregister(db, device, channels: channels) }
    }

    public func unregisterDevice(_ device: DeviceKey) async throws(RegistryError) -> RegistryChange {
        let operation = "unregisterDevice"
        try validation.device(device, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.unregisterDevice(db, device) }
    }

    public func replaceToken(_ device: DeviceKey, with new: Target.Address,
                             at time: Timestamp) async throws(RegistryError) -> RegistryChange {
        let operation = "replaceToken"
        try validation.device(device, operation)
        try validation.address(new, provider: device.provider, operation)
        let newDevice = DeviceKey(app: device.app, provider: device.provider, address: new)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.replaceToken(db, device, with: newDevice, at: time)
        }
    }

    public func channels(of device: DeviceKey) async throws(RegistryError) -> [String] {
        let operation = "channels"
        try validation.device(device, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.channels(db, of: device) }
    }

    public func devices(app: String, channel: String, providers: Set<Provider>?, after cursor: RegistryCursor?,
                        limit: Int) async throws(RegistryError) -> RegistryPage {
        let operation = "devices"
        try validation.app(app, operation)
        try validation.channel(channel, operation)
        try validation.pageSize(limit, operation)
        // Every provider is no filter; none matches nothing.
        let held = self.providers.registrableProviders
        let filter = providers.flatMap { asked in held.allSatisfy(asked.contains) ? nil : held.filter(asked.contains) }
        if filter?.isEmpty == true { return RegistryPage(registrations: [], next: nil) }
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.devices(db, app: app, channel: channel, providers: filter, after: cursor, limit: limit)
        }
    }

    public func count(app: String, channel: String?) async throws(RegistryError) -> Int {
        let operation = "count"
        try validation.app(app, operation)
        if let channel { try validation.channel(channel, operation) }
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.count(db, app: app, channel: channel) }
    }

    public func claimEvents(_ keys: [EventKey], at time: Timestamp, since: Timestamp) async throws(RegistryError) -> [Timestamp?] {
        let operation = "claimEvents"
        for key in keys { try validation.eventKey(key, operation) }
        guard !keys.isEmpty else { return [] }
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.claimEvents(db, keys, at: time, since: since)
        }
    }

    public func forgetEvents(before time: Timestamp) async throws(RegistryError) {
        let operations = operations
        try await pool.run("forgetEvents") { db throws(RegistryError) in try operations.forgetEvents(db, before: time) }
    }

    public func close() { pool.close() }
}
