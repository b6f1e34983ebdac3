import HeraldCore

/// The store's operations, written once for both backends against their
/// `RegistrySQL`, each run by a pool thread on its connection, inside one
/// transaction where it writes.
///
/// Concurrency (several Herald instances on one PostgreSQL): every change to
/// a device first takes the device's lock (`lockDevice`, a transaction-scoped
/// advisory lock on PostgreSQL; SQLite's `BEGIN IMMEDIATE` already admits one
/// writer at a time). Reading the device's memberships, deciding what is
/// created, updated or merged, and checking the per-device channel limit are
/// then one read-modify-write that no other change to that device can
/// interleave with. A lock rather than one clever statement, because the
/// answer (created, updated or unchanged per channel) and the limit both need
/// the device's rows as they stand, and `replaceToken` must see two devices
/// at once. The per-channel limit is one statement that cannot race: the
/// channel's count row is incremented only `WHERE devices < limit`, under
/// that row's lock (`addToChannel`).
///
/// Lock order, so two transactions never wait on each other: device locks
/// first (two in `replaceToken`, in key order), then the app's count row
/// (`herald_apps`, the per-app limit, `addToApp`), then channel count rows in
/// byte order of the channel names.
struct RegistryOperations: Sendable {
    let sql: RegistrySQL
    let limits: RegistryLimits
    /// Which providers and address kinds a row may name.
    let catalog: ProviderCatalog
    /// Seals the secrets the store writes and opens those it reads.
    let sealer: SecretSealer

    func register(
        _ db: any SQLConnection, _ device: DeviceKey, profile: DeviceProfile, channels: [String], environment: String?,
        topic: String?, at time: Timestamp
    ) throws(RegistryError) -> [String: RegistryChange] {
        let operation = "register"
        return try transaction(db, operation) { () throws(RegistryError) in
            try lock([device], db, operation)
            let current = try memberships(of: device, db, operation)
            var changes: [String: RegistryChange] = [:]
            var joining: [String] = []
            for channel in Self.distinctInByteOrder(channels) {
                guard let overrides = current[Array(channel.utf8)] else {
                    joining.append(channel)
                    continue
                }
                if overrides == Overrides(environment: environment, topic: topic) {
                    changes[channel] = .unchanged
                } else {
                    _ = try db.run(
                        sql.updateOverrides,
                        device.parameters + [
                            .text(channel), .optional(environment), .optional(topic),
                            .integer(time.microsecondsSinceEpoch),
                        ], operation: operation)
                    changes[channel] = .updated
                }
            }
            let total = current.count + joining.count
            guard total <= limits.maxChannelsPerDevice else {
                throw RegistryError(
                    .limitExceeded, operation: operation,
                    message:
                        "device \(device) is on \(current.count) channels and would be on \(total); a device may be on at most "
                        + "\(limits.maxChannelsPerDevice) (RegistryLimits.maxChannelsPerDevice)")
            }
            try addToApp(joining.count, device, db, operation)
            for channel in joining {
                try join(channel, device, db, operation)
                _ = try db.run(
                    sql.insertMembership,
                    device.parameters + [
                        .text(channel), .optional(environment), .optional(topic), .integer(time.microsecondsSinceEpoch),
                    ], operation: operation)
                changes[channel] = .created
            }
            _ = try db.run(
                sql.upsertDevice, device.parameters + deviceValues(profile, at: time, operation), operation: operation)
            return changes
        }
    }

    func unregister(_ db: any SQLConnection, _ device: DeviceKey, channels: [String]) throws(RegistryError)
        -> RegistryChange
    {
        let operation = "unregister"
        return try transaction(db, operation) { () throws(RegistryError) in
            try lock([device], db, operation)
            var removed: [String] = []
            for channel in Self.distinctInByteOrder(channels) {
                let rows = try db.run(sql.deleteMembership, device.parameters + [.text(channel)], operation: operation)
                if !rows.isEmpty { removed.append(channel) }
            }
            try removeFromApp(removed.count, app: device.app, db, operation)
            for channel in removed { try leave(channel, app: device.app, db, operation) }
            if !removed.isEmpty { _ = try db.run(sql.deleteUnusedDevice, device.parameters, operation: operation) }
            return removed.isEmpty ? .notFound : .removed(count: removed.count)
        }
    }

    func unregisterDevice(_ db: any SQLConnection, _ device: DeviceKey) throws(RegistryError) -> RegistryChange {
        let operation = "unregisterDevice"
        return try transaction(db, operation) { () throws(RegistryError) in
            try lock([device], db, operation)
            let rows = try db.run(sql.deleteDevice, device.parameters, operation: operation)
            let channels = try rows.map { row throws(RegistryError) in try text(row, 0, sql.deleteDevice, operation) }
            try removeFromApp(rows.count, app: device.app, db, operation)
            for channel in Self.distinctInByteOrder(channels) { try leave(channel, app: device.app, db, operation) }
            _ = try db.run(sql.deleteDeviceRow, device.parameters, operation: operation)
            return rows.isEmpty ? .notFound : .removed(count: rows.count)
        }
    }

    /// Moves every membership of `device` to `newDevice` (same app and
    /// provider); where `newDevice` is already on the channel, its own
    /// membership stays and the old one goes.
    func replaceToken(
        _ db: any SQLConnection, _ device: DeviceKey, with newDevice: DeviceKey,
        at time: Timestamp
    ) throws(RegistryError) -> RegistryChange {
        let operation = "replaceToken"
        return try transaction(db, operation) { () throws(RegistryError) in
            try lock([device, newDevice], db, operation)
            let old = try memberships(of: device, db, operation)
            guard !old.isEmpty else { return .notFound }
            if device == newDevice { return .unchanged }
            let existing = try memberships(of: newDevice, db, operation)
            let total = existing.count + old.keys.count(where: { existing[$0] == nil })
            guard total <= limits.maxChannelsPerDevice else {
                throw RegistryError(
                    .limitExceeded, operation: operation,
                    message:
                        "device \(newDevice) is on \(existing.count) channels and would be on \(total) with those of \(device); "
                        + "a device may be on at most \(limits.maxChannelsPerDevice) (RegistryLimits.maxChannelsPerDevice)"
                )
            }
            try removeFromApp(old.keys.count(where: { existing[$0] != nil }), app: device.app, db, operation)
            for channelBytes in old.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let channel = String(decoding: channelBytes, as: UTF8.self)
                if existing[channelBytes] != nil {
                    _ = try db.run(sql.deleteMembership, device.parameters + [.text(channel)], operation: operation)
                    try leave(channel, app: device.app, db, operation)
                } else {
                    _ = try db.run(
                        sql.moveMembership,
                        device.parameters + [
                            .text(channel), .text(newDevice.address.field), .text(newDevice.address.value),
                            .integer(time.microsecondsSinceEpoch),
                        ], operation: operation)
                }
            }
            // The device's row goes with its memberships, unless the new address has its own.
            _ = try db.run(
                sql.moveDevice,
                device.parameters + [
                    .text(newDevice.address.field), .text(newDevice.address.value),
                    .integer(time.microsecondsSinceEpoch),
                ], operation: operation)
            _ = try db.run(sql.deleteDeviceRow, device.parameters, operation: operation)
            return .updated
        }
    }

    func channels(_ db: any SQLConnection, of device: DeviceKey) throws(RegistryError) -> [String] {
        let operation = "channels"
        return try db.run(sql.deviceChannels, device.parameters, operation: operation).map {
            row throws(RegistryError) in
            try text(row, 0, sql.deviceChannels, operation)
        }
    }

    /// The device's row; nil for a device the registry does not hold.
    func device(_ db: any SQLConnection, _ device: DeviceKey) throws(RegistryError) -> RegisteredDevice? {
        let operation = "device"
        let statement = sql.deviceRow
        guard let row = try db.run(statement, device.parameters, operation: operation).first else { return nil }
        let profile = try profile(row, from: 0, of: device, statement, operation)
        return RegisteredDevice(
            key: device, subscriptionKeys: profile.subscriptionKeys, timezone: profile.timezone,
            locale: profile.locale, attributes: profile.attributes ?? [:],
            lastSeen: Timestamp(microsecondsSinceEpoch: try integer(row, 5, statement, operation)),
            createdAt: Timestamp(microsecondsSinceEpoch: try integer(row, 6, statement, operation)))
    }

    func devices(
        _ db: any SQLConnection, app: String, channel: String, providers: [Provider]?, after cursor: RegistryCursor?,
        limit: Int
    ) throws(RegistryError) -> RegistryPage {
        let operation = "devices"
        let statement = sql.page(providers?.count ?? 0)
        // Empty texts sort before every provider and address (none is empty): the first page.
        let start = cursor ?? RegistryCursor(provider: "", kind: "", address: "")
        // One more than asked tells whether another page follows.
        var parameters: [SQLParameter] = [
            .text(app), .text(channel), .text(start.provider), .text(start.kind), .text(start.address),
            .integer(Int64(limit) + 1),
        ]
        parameters += (providers ?? []).map { .text($0.rawValue) }
        let rows = try db.run(statement, parameters, operation: operation)
        var registrations: [Registration] = []
        for row in rows.prefix(limit) {
            let device = try deviceKey(
                app: app, provider: try text(row, 0, statement, operation),
                kind: try text(row, 1, statement, operation), address: try text(row, 2, statement, operation),
                statement, operation)
            // A secret that cannot be read fails its own device, never the page: the channel's other devices are delivered.
            var unreadable: String?
            var profile = DeviceProfile()
            do { profile = try self.profile(row, from: 7, of: device, statement, operation) } catch {
                guard error.kind == .internal, row.count > 8, row[8] != nil else { throw error }
                unreadable = error.message
                var readable = row
                readable[7] = nil
                readable[8] = nil
                profile = try self.profile(readable, from: 7, of: device, statement, operation)
            }
            registrations.append(
                Registration(
                    device: device, channel: channel, environment: row[3], topic: row[4],
                    createdAt: Timestamp(microsecondsSinceEpoch: try integer(row, 5, statement, operation)),
                    updatedAt: Timestamp(microsecondsSinceEpoch: try integer(row, 6, statement, operation)),
                    subscriptionKeys: profile.subscriptionKeys, timezone: profile.timezone, locale: profile.locale,
                    attributes: profile.attributes ?? [:], unreadableKeys: unreadable))
        }
        let next = rows.count > limit ? registrations.last.map { RegistryCursor(after: $0.device) } : nil
        return RegistryPage(registrations: registrations, next: next)
    }

    func count(_ db: any SQLConnection, app: String, channel: String?) throws(RegistryError) -> Int {
        let operation = "count"
        let (statement, parameters): (SQLStatement, [SQLParameter]) =
            if let channel {
                (sql.channelDevices, [.text(app), .text(channel)])
            } else {
                (sql.appRegistrations, [.text(app)])
            }
        guard let row = try db.run(statement, parameters, operation: operation).first else { return 0 }
        return Int(try integer(row, 0, statement, operation))
    }

    // MARK: Steps

    /// A device's APNs overrides on one channel.
    struct Overrides: Hashable {
        var environment: String?
        var topic: String?
    }

    /// Claims each of `keys` at `time` unless it was received after `since`:
    /// per key, in order, nil when this call claimed it, else when it was
    /// received (a key twice in `keys`: the second is a duplicate of the
    /// first, received at `time`). One upsert claims them all under the keys'
    /// row locks, so of two instances claiming one key at once exactly one
    /// gets nil; the keys go in byte order (app, then id), the order two such
    /// upserts lock rows in.
    func claimEvents(
        _ db: any SQLConnection, _ keys: [EventKey], at time: Timestamp,
        since: Timestamp
    ) throws(RegistryError) -> [Timestamp?] {
        let operation = "claimEvents"
        var seen = Set<EventKey>()
        let distinct = keys.filter { seen.insert($0).inserted }.sorted {
            $0.app == $1.app
                ? $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) : $0.app.utf8.lexicographicallyPrecedes($1.app.utf8)
        }
        return try transaction(db, operation) { () throws(RegistryError) in
            var claimed = Set<EventKey>()
            for row in try db.run(
                sql.claimEvents,
                [
                    .text(Self.jsonArray(distinct)), .integer(time.microsecondsSinceEpoch),
                    .integer(since.microsecondsSinceEpoch),
                ], operation: operation)
            {
                claimed.insert(
                    EventKey(
                        app: try text(row, 0, sql.claimEvents, operation),
                        id: try text(row, 1, sql.claimEvents, operation)))
            }
            // The others were received after `since`: when (a new statement, so
            // on PostgreSQL it also sees a claim committed while the upsert waited).
            var receivedAt: [EventKey: Timestamp] = [:]
            let others = distinct.filter { !claimed.contains($0) }
            if !others.isEmpty {
                for row in try db.run(sql.eventsReceivedAt, [.text(Self.jsonArray(others))], operation: operation) {
                    let key = EventKey(
                        app: try text(row, 0, sql.eventsReceivedAt, operation),
                        id: try text(row, 1, sql.eventsReceivedAt, operation))
                    receivedAt[key] = Timestamp(
                        microsecondsSinceEpoch: try integer(row, 2, sql.eventsReceivedAt, operation))
                }
            }
            var answered = Set<EventKey>()
            return keys.map { key in
                guard answered.insert(key).inserted else { return receivedAt[key] ?? time }
                // Not claimed and not found: deleted meanwhile by an instance with a shorter window.
                return claimed.contains(key) ? nil : receivedAt[key] ?? time
            }
        }
    }

    /// Forgets the event ids received before `time`.
    func forgetEvents(_ db: any SQLConnection, before time: Timestamp) throws(RegistryError) {
        _ = try db.run(sql.forgetEvents, [.integer(time.microsecondsSinceEpoch)], operation: "forgetEvents")
    }

    /// Runs `body` in a write transaction, committed when it returns and
    /// rolled back when it throws; a conflict PostgreSQL reports (deadlock,
    /// serialization failure) is retried, at most three attempts in all.
    func transaction<T>(
        _ db: any SQLConnection, _ operation: String,
        _ body: () throws(RegistryError) -> T
    ) throws(RegistryError) -> T {
        var attempt = 1
        while true {
            do throws(RegistryError) {
                _ = try db.run(sql.begin, [], operation: operation)
                let value = try body()
                _ = try db.run(sql.commit, [], operation: operation)
                return value
            } catch {
                // A failed rollback leaves the connection unusable (`isUsable`): the pool replaces it.
                _ = try? db.run(sql.rollback, [], operation: operation)
                guard error.kind == .conflict, attempt < 3 else { throw error }
                attempt += 1
            }
        }
    }

    /// Parameters 5-10 of `upsertDevice`: the profile's values (NULL for
    /// those not given) and the time.
    private func deviceValues(_ profile: DeviceProfile, at time: Timestamp, _ operation: String)
        throws(RegistryError) -> [SQLParameter]
    {
        var auth: String?
        if let secret = profile.subscriptionKeys?.auth { auth = try sealer.seal(secret, operation: operation) }
        return [
            .optional(profile.subscriptionKeys?.p256dh), .optional(auth),
            .optional(profile.timezone), .optional(profile.locale),
            .optional(profile.attributes.map(Self.attributesJSON)), .integer(time.microsecondsSinceEpoch),
        ]
    }

    /// A device row's p256dh, auth (opened), timezone, locale and attributes, from column `first` on.
    func profile(
        _ row: [String?], from first: Int, of device: DeviceKey, _ statement: SQLStatement, _ operation: String
    ) throws(RegistryError) -> DeviceProfile {
        guard row.count >= first + 5 else {
            throw RegistryError(
                .internal, operation: operation, message: "\(statement.table): a row has \(row.count) columns")
        }
        var keys: SubscriptionKeys?
        if let p256dh = row[first], let auth = row[first + 1] {
            keys = SubscriptionKeys(p256dh: p256dh, auth: try sealer.open(auth, device: device, operation: operation))
        }
        var attributes: [String: String] = [:]
        if let json = row[first + 4] {
            guard let object = try? JSONValue.parse(json).objectValue else {
                throw RegistryError(
                    .internal, operation: operation,
                    message: "\(statement.table): attributes are not a JSON object")
            }
            for (key, value) in object {
                guard let text = value.stringValue else {
                    throw RegistryError(
                        .internal, operation: operation,
                        message: "\(statement.table): attribute \(JSONText.quoted(key)) is not a string")
                }
                attributes[key] = text
            }
        }
        return DeviceProfile(
            subscriptionKeys: keys, timezone: row[first + 2], locale: row[first + 3], attributes: attributes)
    }

    /// Attributes as stored: a JSON object of strings, keys in byte order.
    static func attributesJSON(_ attributes: [String: String]) -> String {
        let members = attributes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return String(
            decoding: JSONValue.object(JSONObject(members.map { ($0.key, JSONValue.string($0.value)) })).serialized,
            as: UTF8.self)
    }

    /// Takes the devices' locks, in key order.
    func lock(_ devices: [DeviceKey], _ db: any SQLConnection, _ operation: String) throws(RegistryError) {
        guard let statement = sql.lockDevice else { return }
        for key in Set(devices.map(\.lockKey)).sorted() {
            _ = try db.run(statement, [.integer(key)], operation: operation)
        }
    }

    /// The device's channels (as UTF-8 bytes, how the databases compare them) and overrides.
    private func memberships(
        of device: DeviceKey, _ db: any SQLConnection,
        _ operation: String
    ) throws(RegistryError) -> [[UInt8]: Overrides] {
        var memberships: [[UInt8]: Overrides] = [:]
        for row in try db.run(sql.deviceChannels, device.parameters, operation: operation) {
            memberships[Array(try text(row, 0, sql.deviceChannels, operation).utf8)] = Overrides(
                environment: row[1], topic: row[2])
        }
        return memberships
    }

    /// Counts `count` more registrations of the device's app, or fails when
    /// the app would hold more than ``RegistryLimits/maxRegistrationsPerApp``.
    /// The app's row is taken before any channel's, in every transaction.
    func addToApp(_ count: Int, _ device: DeviceKey, _ db: any SQLConnection, _ operation: String)
        throws(RegistryError)
    {
        guard count > 0 else { return }
        let limit = limits.maxRegistrationsPerApp
        let rows = try db.run(
            sql.addToApp, [.text(device.app), .integer(Int64(count)), .integer(Int64(limit))], operation: operation)
        guard !rows.isEmpty else {
            throw RegistryError(
                .limitExceeded, operation: operation,
                message:
                    "app \"\(device.app)\" would hold more than \(limit) registrations with these \(count), the most an app may hold "
                    + "(RegistryLimits.maxRegistrationsPerApp); device \(device) was not added")
        }
    }

    /// Counts `count` registrations of `app` fewer.
    func removeFromApp(_ count: Int, app: String, _ db: any SQLConnection, _ operation: String)
        throws(RegistryError)
    {
        guard count > 0 else { return }
        _ = try db.run(sql.removeFromApp, [.text(app), .integer(Int64(count))], operation: operation)
    }

    /// Counts one more device on the channel, or fails when it is full.
    private func join(_ channel: String, _ device: DeviceKey, _ db: any SQLConnection, _ operation: String)
        throws(RegistryError)
    {
        let limit = Int64(limits.maxDevicesPerChannel)
        let rows = try db.run(
            sql.addToChannel, [.text(device.app), .text(channel), .integer(limit)], operation: operation)
        guard !rows.isEmpty else {
            throw RegistryError(
                .limitExceeded, operation: operation,
                message:
                    "channel \"\(channel)\" of app \"\(device.app)\" holds \(limits.maxDevicesPerChannel) devices, the most a channel may hold "
                    + "(RegistryLimits.maxDevicesPerChannel); device \(device) was not added")
        }
    }

    /// Counts one device fewer on the channel, forgetting it at zero.
    func leave(_ channel: String, app: String, _ db: any SQLConnection, _ operation: String)
        throws(RegistryError)
    {
        let rows = try db.run(sql.removeFromChannel, [.text(app), .text(channel)], operation: operation)
        if let row = rows.first, try integer(row, 0, sql.removeFromChannel, operation) <= 0 {
            _ = try db.run(sql.dropEmptyChannel, [.text(app), .text(channel)], operation: operation)
        }
    }

    /// The strings as a JSON array, one parameter for a statement about many.
    /// `[["chat","evt-1"],…]`: the keys as a JSON array of [app, id] pairs.
    private static func jsonArray(_ keys: [EventKey]) -> String {
        String(
            decoding: JSONValue.array(keys.map { .array([.string($0.app), .string($0.id)]) }).serialized, as: UTF8.self)
    }

    /// The strings once each (by their bytes), in byte order: the order channel rows are locked in.
    static func distinctInByteOrder(_ strings: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return strings.filter { seen.insert(Array($0.utf8)).inserted }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    func text(
        _ row: [String?], _ column: Int, _ statement: SQLStatement,
        _ operation: String
    ) throws(RegistryError) -> String {
        guard column < row.count, let value = row[column] else {
            throw RegistryError(
                .internal, operation: operation,
                message: "\(statement.table): column \(column) of a row is missing or NULL")
        }
        return value
    }

    func integer(
        _ row: [String?], _ column: Int, _ statement: SQLStatement,
        _ operation: String
    ) throws(RegistryError) -> Int64 {
        let value = try text(row, column, statement, operation)
        guard let number = Int64(value) else {
            throw RegistryError(
                .internal, operation: operation,
                message: "\(statement.table): expected an integer in column \(column), found \"\(value)\"")
        }
        return number
    }
}

extension DeviceKey {
    /// Parameters 1-4 of every statement about a device.
    var parameters: [SQLParameter] {
        [.text(app), .text(provider.rawValue), .text(address.field), .text(address.value)]
    }

    /// The key of the device's PostgreSQL advisory lock: FNV-1a over its
    /// fields. Two devices sharing a key only wait for each other.
    var lockKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in [app, provider.rawValue, address.field, address.value] {
            for byte in field.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3  // a separator no UTF-8 text contains
        }
        return Int64(bitPattern: hash)
    }
}
