import HeraldCore

/// Devices not seen for a while: listing them (`herald registry stale`) and
/// retiring them in bounded batches (`registry.expire_after`).
///
/// A batch is one transaction: its candidates are the longest-unseen rows,
/// read without locks; each is then locked without waiting
/// (`tryLockDevice`: a device a `register` holds at that moment is left for
/// the next run, and no lock is ever waited for out of order) and deleted
/// only if it is still unseen (`retireDevice`, a `DELETE … RETURNING`), so of
/// several instances retiring at once exactly one deletes — and reports —
/// each device, and a device registered meanwhile stays. Its memberships go
/// with it; the count rows are then decremented in the lock order of every
/// other change: apps, then channels in byte order.
extension RegistryOperations {
    func staleDevices(_ db: any SQLConnection, app: String?, seenBefore: Timestamp, limit: Int) throws(RegistryError)
        -> [RegisteredDevice]
    {
        let operation = "staleDevices"
        let statement = sql.staleDevices
        let rows = try db.run(
            statement, [.integer(seenBefore.microsecondsSinceEpoch), .integer(Int64(limit)), .optional(app)],
            operation: operation)
        var devices: [RegisteredDevice] = []
        for row in rows {
            let key = try deviceKey(row, statement, operation)
            let profile = try profile(row, from: 6, of: key, statement, operation)
            devices.append(
                RegisteredDevice(
                    key: key,
                    timezone: profile.timezone, locale: profile.locale, attributes: profile.attributes ?? [:],
                    lastSeen: Timestamp(microsecondsSinceEpoch: try integer(row, 4, statement, operation)),
                    createdAt: Timestamp(microsecondsSinceEpoch: try integer(row, 5, statement, operation))))
        }
        return devices
    }

    func retireDevices(_ db: any SQLConnection, seenBefore: Timestamp, limit: Int) throws(RegistryError)
        -> [RetiredDevice]
    {
        let operation = "retireDevices"
        let before = seenBefore.microsecondsSinceEpoch
        return try transaction(db, operation) { () throws(RegistryError) in
            let candidates = try db.run(
                sql.staleDevices, [.integer(before), .integer(Int64(limit)), .null], operation: operation)
            var retired: [RetiredDevice] = []
            var removedPerApp: [String: Int] = [:]
            var leaving: [(app: String, channel: String)] = []
            for row in candidates {
                let device = try deviceKey(row, sql.staleDevices, operation)
                if let tryLock = sql.tryLockDevice {
                    let locked = try db.run(tryLock, [.integer(device.lockKey)], operation: operation).first
                    guard let value = locked?.first ?? nil, value == "t" || value == "true" else { continue }
                }
                guard
                    let seen = try db.run(
                        sql.retireDevice, device.parameters + [.integer(before)], operation: operation
                    ).first
                else { continue }
                let lastSeen = Timestamp(microsecondsSinceEpoch: try integer(seen, 0, sql.retireDevice, operation))
                var channels: [String] = []
                for membership in try db.run(sql.deleteDevice, device.parameters, operation: operation) {
                    channels.append(try text(membership, 0, sql.deleteDevice, operation))
                }
                channels.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                removedPerApp[device.app, default: 0] += channels.count
                leaving += channels.map { (device.app, $0) }
                retired.append(RetiredDevice(device: device, lastSeen: lastSeen, channels: channels))
            }
            for app in removedPerApp.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                try removeFromApp(removedPerApp[app] ?? 0, app: app, db, operation)
            }
            leaving.sort {
                $0.app == $1.app
                    ? $0.channel.utf8.lexicographicallyPrecedes($1.channel.utf8)
                    : $0.app.utf8.lexicographicallyPrecedes($1.app.utf8)
            }
            for (app, channel) in leaving { try leave(channel, app: app, db, operation) }
            return retired
        }
    }

    /// Columns 0-3 of a device row (app, provider, address kind, address) as
    /// the device they name (``deviceKey(app:provider:kind:address:_:_:)``).
    private func deviceKey(_ row: [String?], _ statement: SQLStatement, _ operation: String) throws(RegistryError)
        -> DeviceKey
    {
        try deviceKey(
            app: try text(row, 0, statement, operation), provider: try text(row, 1, statement, operation),
            kind: try text(row, 2, statement, operation), address: try text(row, 3, statement, operation),
            statement, operation)
    }
}
