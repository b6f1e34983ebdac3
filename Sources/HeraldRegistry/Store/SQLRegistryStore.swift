import HeraldCore

/// Which database the registry lives in, and how it is reached: the
/// backend's SQL, how a connection is opened, and how many are open at once.
/// ``SQLRegistryStore`` holds one; `.sqlite(path:)` and
/// `.postgres(url:poolSize:)` make them.
public struct RegistryDialect: Sendable {
    let sql: RegistrySQL
    /// Where the data lives, as messages name it: the SQLite file, or the
    /// PostgreSQL server (its URL without password or query).
    public let location: String
    let poolSize: Int
    let open: @Sendable (String) throws(RegistryError) -> any SQLConnection

    /// A dialect's setting that cannot be used (an empty path, a URL that is
    /// not PostgreSQL's, a pool size out of range): `.invalidInput` for `open`.
    static func unusable(_ message: String) -> RegistryError {
        RegistryError(.invalidInput, operation: "open", message: message)
    }
}

/// The registry on SQLite or PostgreSQL (its ``RegistryDialect``):
/// arguments checked here, then the operation run on a pool thread with its
/// connection, in the dialect's SQL.
public final class SQLRegistryStore: RegistryStore {
    public let limits: RegistryLimits
    /// The database and its SQL.
    public let dialect: RegistryDialect
    private let pool: ConnectionPool
    private let operations: RegistryOperations
    private let migrator: Migrator
    private let validation: RegistryValidation

    /// The providers whose devices the store holds, with their rules.
    public let providers: ProviderCatalog

    /// A store in `dialect`'s database holding `providers`' devices; nothing
    /// is opened until the first call. With `secretKey`, the secrets it
    /// writes (a Web Push subscription's `auth`) are encrypted at rest.
    public init(
        _ dialect: RegistryDialect, providers: ProviderCatalog, limits: RegistryLimits = .default,
        secretKey: RegistrySecretKey? = nil
    ) throws(RegistryError) {
        self.dialect = dialect
        self.limits = limits
        self.providers = providers
        operations = RegistryOperations(
            sql: dialect.sql, limits: limits, catalog: providers, sealer: SecretSealer(key: secretKey))
        migrator = Migrator(sql: dialect.sql, operations: operations)
        validation = RegistryValidation(limits: limits, providers: providers)
        pool = try ConnectionPool(size: dialect.poolSize, open: dialect.open)
    }

    deinit { pool.close() }

    public func migrate() async throws(RegistryError) -> [Int] {
        let migrator = migrator
        return try await pool.run("migrate") { db throws(RegistryError) in try migrator.migrate(db) }
    }

    public func register(
        _ device: DeviceKey, profile: DeviceProfile, channels: [String], environment: String?, topic: String?,
        at time: Timestamp
    ) async throws(RegistryError) -> [String: RegistryChange] {
        let operation = "register"
        try check(
            DeviceRegistration(
                device: device, channels: channels, environment: environment, topic: topic, profile: profile),
            operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.register(
                db, device, profile: profile, channels: channels, environment: environment, topic: topic, at: time)
        }
    }

    /// A registration's arguments, as `register` and `register(batch:)` check them.
    private func check(_ registration: DeviceRegistration, _ operation: String) throws(RegistryError) {
        try validation.device(registration.device, operation)
        try validation.channels(registration.channels, operation)
        try validation.overrides(
            environment: registration.environment, topic: registration.topic, provider: registration.device.provider,
            operation)
        try validation.profile(registration.profile, operation)
    }

    public func register(batch: [DeviceRegistration], at time: Timestamp) async throws(RegistryError)
        -> [Result<[String: RegistryChange], RegistryError>]
    {
        let operation = "register"
        var results = [Result<[String: RegistryChange], RegistryError>?](repeating: nil, count: batch.count)
        var valid: [(index: Int, registration: DeviceRegistration)] = []
        for (index, registration) in batch.enumerated() {
            do throws(RegistryError) {
                try check(registration, operation)
                valid.append((index, registration))
            } catch {
                results[index] = .failure(error)
            }
        }
        if !valid.isEmpty {
            let operations = operations
            let registrations = valid.map(\.registration)
            let applied = try await pool.run(operation) { db throws(RegistryError) in
                do throws(RegistryError) {
                    return try operations.register(db, batch: registrations, at: time).map {
                        Result<[String: RegistryChange], RegistryError>.success($0)
                    }
                } catch  where error.kind == .limitExceeded {
                    // A limit is crossed somewhere in the batch: one `register` each, as commands would go.
                    var one: [Result<[String: RegistryChange], RegistryError>] = []
                    for r in registrations {
                        do throws(RegistryError) {
                            one.append(
                                .success(
                                    try operations.register(
                                        db, r.device, profile: r.profile, channels: r.channels,
                                        environment: r.environment, topic: r.topic, at: time)))
                        } catch  where error.kind == .limitExceeded || error.kind == .invalidInput {
                            one.append(.failure(error))
                        }
                    }
                    return one
                }
            }
            for (entry, result) in zip(valid, applied) { results[entry.index] = result }
        }
        return results.map { $0 ?? .failure(RegistryError(.internal, operation: operation, message: "no result")) }
    }

    public func exportPage(app: String?, after: DeviceKey?, limit: Int) async throws(RegistryError)
        -> DeviceRegistrationPage
    {
        let operation = "exportPage"
        if let app { try validation.app(app, operation) }
        if let after { try validation.device(after, operation) }
        try validation.pageSize(limit, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.exportPage(db, app: app, after: after, limit: limit)
        }
    }

    public func device(_ device: DeviceKey) async throws(RegistryError) -> RegisteredDevice? {
        let operation = "device"
        try validation.device(device, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.device(db, device) }
    }

    public func unregister(_ device: DeviceKey, channels: [String]) async throws(RegistryError) -> RegistryChange {
        let operation = "unregister"
        try validation.device(device, operation)
        try validation.channels(channels, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.unregister(db, device, channels: channels)
        }
    }

    public func unregisterDevice(_ device: DeviceKey) async throws(RegistryError) -> RegistryChange {
        let operation = "unregisterDevice"
        try validation.device(device, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in try operations.unregisterDevice(db, device) }
    }

    public func replaceToken(
        _ device: DeviceKey, with new: Target.Address,
        at time: Timestamp
    ) async throws(RegistryError) -> RegistryChange {
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

    public func devices(
        app: String, channel: String, providers: Set<Provider>?, after cursor: RegistryCursor?,
        limit: Int
    ) async throws(RegistryError) -> RegistryPage {
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
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.count(db, app: app, channel: channel)
        }
    }

    public func claimEvents(_ keys: [EventKey], at time: Timestamp, since: Timestamp) async throws(RegistryError)
        -> [Timestamp?]
    {
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

    public func staleDevices(app: String?, seenBefore: Timestamp, limit: Int) async throws(RegistryError)
        -> [RegisteredDevice]
    {
        let operation = "staleDevices"
        if let app { try validation.app(app, operation) }
        try validation.pageSize(limit, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.staleDevices(db, app: app, seenBefore: seenBefore, limit: limit)
        }
    }

    public func retireDevices(seenBefore: Timestamp, limit: Int) async throws(RegistryError) -> [RetiredDevice] {
        let operation = "retireDevices"
        try validation.pageSize(limit, operation)
        let operations = operations
        return try await pool.run(operation) { db throws(RegistryError) in
            try operations.retireDevices(db, seenBefore: seenBefore, limit: limit)
        }
    }

    public func close() { pool.close() }
}
