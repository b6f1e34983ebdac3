/// Every statement the registry runs, written once per backend
/// (`SQLiteDialect.sql`, `PostgresDialect.sql`); `RegistryOperations` and
/// `Migrator` are written once against it.
///
/// Placeholders are numbered and mean the same on both backends. A device is
/// always parameters 1-4: app, provider, address kind (`token`, `fid`),
/// address. Times are microseconds since the Unix epoch.
struct RegistrySQL: Sendable {
    /// `SQLite` or `PostgreSQL`, for messages.
    let backend: String

    /// Starts a transaction that will write (SQLite takes the write lock at once).
    let begin: SQLStatement
    let commit: SQLStatement
    let rollback: SQLStatement

    /// Serializes migrations between instances for the transaction; nil where
    /// `begin` already does (SQLite).
    let lockMigrations: SQLStatement?
    let createMigrationsTable: SQLStatement
    /// → version, ascending.
    let appliedVersions: SQLStatement
    /// (version).
    let recordVersion: SQLStatement
    /// Ascending versions, each applied in the same transaction as its record.
    let migrations: [Migration]

    /// (lock key): serializes every change to one device for the transaction;
    /// nil where `begin` already serializes all writers (SQLite).
    let lockDevice: SQLStatement?
    /// (device) → channel, environment, topic; ordered by channel, byte for byte.
    let deviceChannels: SQLStatement
    /// (device, channel, environment, topic, time): adds a membership.
    let insertMembership: SQLStatement
    /// (device, channel, environment, topic, time).
    let updateOverrides: SQLStatement
    /// (device, channel, new address kind, new address, time): the membership now belongs to the new address.
    let moveMembership: SQLStatement
    /// (device, channel) → id of the removed row, if any.
    let deleteMembership: SQLStatement
    /// (device) → channel of each removed row.
    let deleteDevice: SQLStatement
    /// (device, p256dh, auth, timezone, locale, attributes JSON, time): creates
    /// the device's row, or refreshes its `last_seen` and sets the values
    /// given (a NULL keeps the stored one; `''` clears a time zone or locale).
    let upsertDevice: SQLStatement
    /// (device) → p256dh, auth, timezone, locale, attributes JSON, last seen, created; no row for an unknown device.
    let deviceRow: SQLStatement
    /// (device): forgets the device's row when it is on no channel any more.
    let deleteUnusedDevice: SQLStatement
    /// (device): forgets the device's row.
    let deleteDeviceRow: SQLStatement
    /// (device, new address kind, new address, time): the row now belongs to
    /// the new address, unless that address has a row of its own.
    let moveDevice: SQLStatement
    /// (app, channel, limit) → the channel's new device count; no row when it already holds `limit`.
    let addToChannel: SQLStatement
    /// (app, channel) → the channel's new device count.
    let removeFromChannel: SQLStatement
    /// (app, channel): forgets a channel whose count reached zero.
    let dropEmptyChannel: SQLStatement
    /// (app, count, limit) → the app's new registration count, `count` more;
    /// no row when that would be over `limit`.
    let addToApp: SQLStatement
    /// (app, count): `count` registrations fewer (never below zero).
    let removeFromApp: SQLStatement
    /// (app, channel) → devices; no row for a channel without devices.
    let channelDevices: SQLStatement
    /// (app) → registrations of the app (its `herald_apps` row); no row for an app without any.
    let appRegistrations: SQLStatement
    /// (app, channel, after provider, address kind, address, limit, then one
    /// provider name per `providers` count) → provider, address kind,
    /// address, environment, topic, created, updated, then the device's
    /// p256dh, auth, timezone, locale, attributes JSON; in device order
    /// (provider, address kind, address; byte order) after the one given.
    let page: @Sendable (_ providers: Int) -> SQLStatement

    /// (JSON array of distinct [app, event id] pairs, time, since) → app and
    /// event id of each pair this statement claimed at `time`: it was
    /// unknown, or received at or before `since`. A pair received after
    /// `since` gives no row.
    let claimEvents: SQLStatement
    /// (JSON array of [app, event id] pairs) → app, event id, when it was received; no row for an unknown pair.
    let eventsReceivedAt: SQLStatement
    /// (before): forgets the ids received before that time.
    let forgetEvents: SQLStatement

    /// (before, limit, app or NULL) → app, provider, address kind, address,
    /// last seen, created, then NULL, NULL (a subscription's keys, not read),
    /// timezone, locale, attributes JSON: the devices last registered before
    /// `before` (of one app, or of every app), longest unseen first.
    let staleDevices: SQLStatement
    /// (device, before) → last seen: forgets the device's row when it was last
    /// registered before `before`; no row when it was registered since, or is gone.
    let retireDevice: SQLStatement
    /// (lock key) → whether this transaction took the device's lock (`t`),
    /// without waiting for it; nil where `begin` already serializes all writers (SQLite).
    let tryLockDevice: SQLStatement?

    // Batches (`register(batch:)`, `exportPage`): many devices per statement,
    // each list one JSON array parameter.

    /// (JSON array of lock keys, ascending): takes each device's lock in that
    /// order, as `lockDevice` does one; nil where `begin` already serializes
    /// all writers (SQLite).
    let lockDevices: SQLStatement?
    /// (JSON array of [app, provider, address kind, address]) → app,
    /// provider, address kind, address, channel, environment, topic of every
    /// membership of those devices, in no particular order.
    let devicesMemberships: SQLStatement
    /// (JSON array of [app, provider, address kind, address, channel,
    /// environment, topic], time): adds those memberships, in array order.
    let insertMemberships: SQLStatement
    /// (JSON array of [app, provider, address kind, address, p256dh, auth,
    /// timezone, locale, attributes JSON], time): `upsertDevice` for each
    /// device of the array, in array order, for devices that all give (or
    /// all leave out) each of the time zone, locale and attributes: a field
    /// given replaces the stored one (`""` clears it), one left out is kept.
    let upsertDevices: @Sendable (_ given: DeviceFieldsGiven) -> SQLStatement
    /// (JSON array of [app, channel, count] in byte order, limit) → app and
    /// channel of each channel whose count rose by `count`; a channel that
    /// would then hold more than `limit` gives no row.
    let addToChannels: SQLStatement
    /// (JSON array of [app, provider, address kind, address]) → app,
    /// provider, address kind, address, p256dh, auth (sealed), timezone,
    /// locale, attributes JSON of each of those devices that has a row.
    let devicesProfiles: SQLStatement
    /// (app, provider, address kind, address, limit) → app, provider, address
    /// kind, address of the next `limit` devices after that one, of every
    /// app, in the device index's order (`exportPage`).
    let nextDevices: SQLStatement
    /// (app, provider, address kind, address, limit): likewise, of that app only.
    let nextDevicesOfApp: SQLStatement

    /// ` AND column IN (…)` with `count` placeholders from parameter 7 on
    /// (`placeholder` spells one in the backend's syntax); empty for none.
    static func providerFilter(_ count: Int, column: String, placeholder: (Int) -> String) -> String {
        count == 0 ? "" : " AND \(column) IN (" + (7..<7 + count).map(placeholder).joined(separator: ", ") + ")"
    }
}

/// Which of a device row's replaceable fields a batch of registrations
/// gives (`RegistrySQL.upsertDevices`): those given are set, the others kept.
struct DeviceFieldsGiven: Hashable, Sendable {
    var timezone: Bool
    var locale: Bool
    var attributes: Bool

    init(_ profile: DeviceProfile) {
        (timezone, locale, attributes) = (profile.timezone != nil, profile.locale != nil, profile.attributes != nil)
    }
}

/// The registry's tables, named alike on both backends: each dialect's
/// statements name the table they work on (``SQLStatement/table``), for
/// error messages.
protocol RegistryTables {}

extension RegistryTables {
    static var registrations: String { "herald_registrations" }
    static var channels: String { "herald_channels" }
    static var versions: String { "herald_schema_migrations" }
    static var events: String { "herald_event_ids" }
    static var apps: String { "herald_apps" }
    static var devices: String { "herald_devices" }
}
