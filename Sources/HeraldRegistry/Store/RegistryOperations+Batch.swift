import HeraldCore

/// Registering many devices in one transaction (`herald registry import`),
/// and reading every device with its channels a page at a time
/// (`herald registry export`).
///
/// A batch means exactly what its registrations one `register` call each, in
/// order, would mean — the same rows, the same created/updated/unchanged
/// answers, the same `herald_apps` and `herald_channels` counts — with a few
/// statements per batch instead of a few per device:
///
/// 1. the batch is cut into runs without a repeated device (a device twice
///    is registered twice, the second seeing the first);
/// 2. per run, the devices' locks in key order (PostgreSQL; SQLite's write
///    lock already serializes), then every membership of the run's devices
///    in one read;
/// 3. what each registration creates, updates or leaves as it is, decided
///    as `register` decides it;
/// 4. the apps' counts, then the channels' counts (one upsert for all of
///    them, in byte order), each checked against its limit;
/// 5. overrides that changed, then the new memberships in one insert, then
///    the devices' rows (`herald_devices`) in one upsert.
///
/// Any limit the batch would cross (a device's channels, an app's
/// registrations, a channel's devices) rolls the batch back, and the store
/// then registers its devices one `register` call at a time: the first ones
/// fit, the one that crosses the limit is refused with `register`'s own
/// message, exactly as the commands would have gone.
extension RegistryOperations {
    /// The 4 text columns that name a device, as rows give them.
    struct DeviceColumns: Hashable {
        var app, provider, kind, address: String

        init(_ device: DeviceKey) {
            (app, provider, kind, address) = (
                device.app, device.provider.rawValue, device.address.field, device.address.value
            )
        }

        init(app: String, provider: String, kind: String, address: String) {
            (self.app, self.provider, self.kind, self.address) = (app, provider, kind, address)
        }

        var json: JSONValue { .array(fields) }

        /// The columns as JSON strings, in statement order.
        var fields: [JSONValue] { [.string(app), .string(provider), .string(kind), .string(address)] }
    }

    /// Registers each of `batch` (already checked) as `register` would, in
    /// one transaction: per registration, the change to each of its channels.
    /// Throws `.limitExceeded` (nothing written) when one would cross a limit.
    func register(
        _ db: any SQLConnection, batch: [DeviceRegistration], at time: Timestamp
    ) throws(RegistryError) -> [[String: RegistryChange]] {
        let operation = "registerBatch"
        return try transaction(db, operation) { () throws(RegistryError) in
            var changes: [[String: RegistryChange]] = []
            changes.reserveCapacity(batch.count)
            var start = 0
            while start < batch.count {
                var seen = Set<DeviceColumns>()
                var end = start
                while end < batch.count, seen.insert(DeviceColumns(batch[end].device)).inserted { end += 1 }
                changes += try registerRun(db, batch[start..<end], at: time, operation)
                start = end
            }
            return changes
        }
    }

    /// Steps 2-5 for registrations of distinct devices.
    private func registerRun(
        _ db: any SQLConnection, _ run: ArraySlice<DeviceRegistration>, at time: Timestamp, _ operation: String
    ) throws(RegistryError) -> [[String: RegistryChange]] {
        if let statement = sql.lockDevices {
            let keys = Set(run.map(\.device.lockKey)).sorted().map { JSONValue.string(String($0)) }
            _ = try db.run(statement, [.text(Self.json(keys))], operation: operation)
        }
        let current = try memberships(of: run.map(\.device), db, operation)

        var changes: [[String: RegistryChange]] = []
        var inserts: [JSONValue] = []
        var updates: [(DeviceKey, String, Overrides)] = []
        var newPerApp: [String: Int] = [:]
        var newPerChannel: [[UInt8]: (app: String, channel: String, count: Int)] = [:]
        for registration in run {
            let device = registration.device
            let columns = DeviceColumns(device)
            let existing = current[columns] ?? [:]
            let wanted = Overrides(environment: registration.environment, topic: registration.topic)
            var change: [String: RegistryChange] = [:]
            var joining = 0
            for channel in Self.distinctInByteOrder(registration.channels) {
                if let overrides = existing[Array(channel.utf8)] {
                    if overrides == wanted {
                        change[channel] = .unchanged
                    } else {
                        updates.append((device, channel, wanted))
                        change[channel] = .updated
                    }
                    continue
                }
                joining += 1
                change[channel] = .created
                inserts.append(
                    .array(
                        columns.fields + [
                            .string(channel), wanted.environment.map(JSONValue.string) ?? .null,
                            wanted.topic.map(JSONValue.string) ?? .null,
                        ]))
                let key = Array(device.app.utf8) + [0xFF] + Array(channel.utf8)
                newPerChannel[key, default: (device.app, channel, 0)].count += 1
            }
            guard existing.count + joining <= limits.maxChannelsPerDevice else {
                throw RegistryError(
                    .limitExceeded, operation: operation, message: "device \(device) would be on too many channels")
            }
            newPerApp[device.app, default: 0] += joining
            changes.append(change)
        }

        for (app, count) in newPerApp.filter({ $0.value > 0 }).sorted(by: {
            $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        }) {
            try addToApp(count, app: app, db, operation)
        }
        if !newPerChannel.isEmpty {
            let counts = newPerChannel.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
            let raised = try db.run(
                sql.addToChannels,
                [
                    .text(
                        Self.json(
                            counts.map {
                                .array([.string($0.app), .string($0.channel), .number(JSONNumber($0.count))])
                            })),
                    .integer(Int64(limits.maxDevicesPerChannel)),
                ], operation: operation)
            guard raised.count == counts.count else {
                throw RegistryError(
                    .limitExceeded, operation: operation, message: "a channel would hold too many devices")
            }
        }
        for (device, channel, overrides) in updates {
            _ = try db.run(
                sql.updateOverrides,
                device.parameters + [
                    .text(channel), .optional(overrides.environment), .optional(overrides.topic),
                    .integer(time.microsecondsSinceEpoch),
                ], operation: operation)
        }
        if !inserts.isEmpty {
            _ = try db.run(
                sql.insertMemberships, [.text(Self.json(inserts)), .integer(time.microsecondsSinceEpoch)],
                operation: operation)
        }
        try upsertDevices(run, at: time, db, operation)
        return changes
    }

    /// Creates or refreshes the run's device rows as `register` does its one
    /// (`upsertDevice`), one statement per set of fields given (usually one).
    private func upsertDevices(
        _ run: ArraySlice<DeviceRegistration>, at time: Timestamp, _ db: any SQLConnection, _ operation: String
    ) throws(RegistryError) {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var groups: [DeviceFieldsGiven: [JSONValue]] = [:]
        var order: [DeviceFieldsGiven] = []
        for registration in run {
            let profile = registration.profile
            // Sealed as `register` seals it (`registry.encryption_key`).
            let auth = try profile.subscriptionKeys.map { keys throws(RegistryError) in
                try sealer.seal(keys.auth, operation: operation)
            }
            let given = DeviceFieldsGiven(profile)
            if groups[given] == nil { order.append(given) }
            groups[given, default: []].append(
                .array(
                    DeviceColumns(registration.device).fields + [
                        text(profile.subscriptionKeys?.p256dh), text(auth), text(profile.timezone),
                        text(profile.locale), text(profile.attributes.map(Self.attributesJSON)),
                    ]))
        }
        for given in order {
            _ = try db.run(
                sql.upsertDevices(given),
                [.text(Self.json(groups[given] ?? [])), .integer(time.microsecondsSinceEpoch)],
                operation: operation)
        }
    }

    /// Every membership of `devices` (channels as UTF-8 bytes, as the databases compare them) and its overrides.
    func memberships(
        of devices: [DeviceKey], _ db: any SQLConnection, _ operation: String
    ) throws(RegistryError) -> [DeviceColumns: [[UInt8]: Overrides]] {
        let statement = sql.devicesMemberships
        var memberships: [DeviceColumns: [[UInt8]: Overrides]] = [:]
        let rows = try db.run(
            statement, [.text(Self.json(devices.map { DeviceColumns($0).json }))], operation: operation)
        for row in rows {
            let device = DeviceColumns(
                app: try text(row, 0, statement, operation), provider: try text(row, 1, statement, operation),
                kind: try text(row, 2, statement, operation), address: try text(row, 3, statement, operation))
            let channel = Array(try text(row, 4, statement, operation).utf8)
            memberships[device, default: [:]][channel] = Overrides(environment: row[5], topic: row[6])
        }
        return memberships
    }

    /// The next `limit` devices after `after` (of `app`, or of every app when
    /// nil), each with its channels in byte order, one entry per set of
    /// overrides; `next` is nil when no device follows.
    func exportPage(
        _ db: any SQLConnection, app: String?, after: DeviceKey?, limit: Int
    ) throws(RegistryError) -> DeviceRegistrationPage {
        let operation = "exportPage"
        // An empty text sorts before every name and address (none is empty).
        let start = after.map(DeviceColumns.init) ?? DeviceColumns(app: app ?? "", provider: "", kind: "", address: "")
        let (statement, parameters): (SQLStatement, [SQLParameter]) =
            if let app {
                (sql.nextDevicesOfApp, [.text(app), .text(start.provider), .text(start.kind), .text(start.address)])
            } else {
                (sql.nextDevices, [.text(start.app), .text(start.provider), .text(start.kind), .text(start.address)])
            }
        let rows = try db.run(statement, parameters + [.integer(Int64(limit) + 1)], operation: operation)
        var devices: [DeviceKey] = []
        for row in rows.prefix(limit) {
            devices.append(
                try deviceKey(
                    app: try text(row, 0, statement, operation), provider: try text(row, 1, statement, operation),
                    kind: try text(row, 2, statement, operation), address: try text(row, 3, statement, operation),
                    statement, operation))
        }
        let current = try memberships(of: devices, db, operation)
        var profiles: [DeviceColumns: DeviceProfile] = [:]
        let profileRows = try db.run(
            sql.devicesProfiles, [.text(Self.json(devices.map { DeviceColumns($0).json }))], operation: operation)
        for row in profileRows {
            let device = try deviceKey(
                app: try text(row, 0, sql.devicesProfiles, operation),
                provider: try text(row, 1, sql.devicesProfiles, operation),
                kind: try text(row, 2, sql.devicesProfiles, operation),
                address: try text(row, 3, sql.devicesProfiles, operation), sql.devicesProfiles, operation)
            profiles[DeviceColumns(device)] = try profile(row, from: 4, of: device, sql.devicesProfiles, operation)
        }
        var registrations: [DeviceRegistration] = []
        for device in devices {
            let profile = profiles[DeviceColumns(device)] ?? DeviceProfile()
            let channels = (current[DeviceColumns(device)] ?? [:]).sorted { $0.key.lexicographicallyPrecedes($1.key) }
            // One entry per set of overrides, in the order of its first channel.
            var entries: [Overrides: Int] = [:]
            let first = registrations.count
            for (channel, overrides) in channels {
                let name = String(decoding: channel, as: UTF8.self)
                if let index = entries[overrides] {
                    registrations[index].channels.append(name)
                } else {
                    entries[overrides] = first + entries.count
                    registrations.append(
                        DeviceRegistration(
                            device: device, channels: [name], environment: overrides.environment,
                            topic: overrides.topic, profile: profile))
                }
            }
        }
        return DeviceRegistrationPage(registrations: registrations, next: rows.count > limit ? devices.last : nil)
    }

    /// A device from a row's columns, which must name a provider and device address kind this Herald knows.
    func deviceKey(
        app: String, provider name: String, kind: String, address: String, _ statement: SQLStatement,
        _ operation: String
    ) throws(RegistryError) -> DeviceKey {
        let provider = Provider(rawValue: name)
        guard catalog.rules(for: provider) != nil, let addressKind = catalog.addressKind(field: kind),
            addressKind.isDevice
        else {
            throw RegistryError(
                .internal, operation: operation,
                message:
                    "\(statement.table) has a row of provider \"\(name)\" and address kind \"\(kind)\", "
                    + "which this Herald does not know")
        }
        return DeviceKey(app: app, provider: provider, address: Target.Address(addressKind, address))
    }

    /// Counts `count` more registrations of `app`; `.limitExceeded` past ``RegistryLimits/maxRegistrationsPerApp``.
    private func addToApp(_ count: Int, app: String, _ db: any SQLConnection, _ operation: String)
        throws(RegistryError)
    {
        let rows = try db.run(
            sql.addToApp, [.text(app), .integer(Int64(count)), .integer(Int64(limits.maxRegistrationsPerApp))],
            operation: operation)
        guard !rows.isEmpty else {
            throw RegistryError(.limitExceeded, operation: operation, message: "app \"\(app)\" would hold too many")
        }
    }

    /// `values` as one JSON array parameter.
    static func json(_ values: [JSONValue]) -> String {
        String(decoding: JSONValue.array(values).serialized, as: UTF8.self)
    }
}
