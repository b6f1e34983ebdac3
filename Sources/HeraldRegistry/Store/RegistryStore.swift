import HeraldCore

/// Where Herald keeps which devices are on which channels, so an event can
/// name a channel (`user:42`, `room:general`) instead of listing tokens.
///
/// One implementation, ``SQLRegistryStore``, on two dialects: SQLite for one
/// instance and development, PostgreSQL for several instances sharing one
/// database (docs/registry.md). Both validate their arguments the same way,
/// enforce ``RegistryLimits``, and do every change in one transaction, safe
/// against other instances doing the same at once. Channel names compare
/// byte for byte.
///
/// The same database remembers the event ids received lately
/// (`duplicate_window`), so that window spans instances and restarts.
public protocol RegistryStore: Sendable {
    /// Brings the schema up to date; the versions applied now (empty when it
    /// already was). Idempotent, and safe when several instances run it at once.
    func migrate() async throws(RegistryError) -> [Int]

    /// Puts the device on each of `channels` with these APNs overrides (nil:
    /// the app's settings), and creates its row with `profile` or refreshes
    /// it (`last_seen` becomes `at`, the profile's values given replace the
    /// stored ones); per channel, whether that created the membership,
    /// changed its overrides, or found it as asked. Fails as a whole (nothing
    /// written) past a limit.
    func register(
        _ device: DeviceKey, profile: DeviceProfile, channels: [String], environment: String?, topic: String?,
        at: Timestamp
    ) async throws(RegistryError) -> [String: RegistryChange]

    /// Registers many devices at once (`herald registry import`): each as
    /// ``register(_:channels:environment:topic:at:)`` would, in order, with
    /// its answer or its refusal (a bad argument, a limit) in the same place
    /// in the result. One transaction for the batch, a few statements for all
    /// of it; past a limit, one `register` per device. Throws only what
    /// fails the batch as a whole (the database unavailable): then nothing
    /// of it was written.
    func register(batch: [DeviceRegistration], at: Timestamp) async throws(RegistryError)
        -> [Result<[String: RegistryChange], RegistryError>]

    /// Up to `limit` devices after `after` (nil: from the first), of `app`
    /// (nil: of every app), each with its channels and overrides, in a
    /// stable order (the device index's): `herald registry export`, a page
    /// at a time. A device that stays registered during a walk is in it
    /// once; one that joins or leaves may or may not be.
    func exportPage(app: String?, after: DeviceKey?, limit: Int) async throws(RegistryError)
        -> DeviceRegistrationPage

    /// The device's row (its profile, first and last registration); nil for a
    /// device on no channel.
    func device(_ device: DeviceKey) async throws(RegistryError) -> RegisteredDevice?

    /// Takes the device off those of `channels` it is on: `.removed(count:)`,
    /// or `.notFound` for none. A device left on no channel loses its row.
    func unregister(_ device: DeviceKey, channels: [String]) async throws(RegistryError) -> RegistryChange

    /// Takes the device off every channel of its app and forgets its row (an
    /// uninstalled app, a dead token, a gone subscription).
    func unregisterDevice(_ device: DeviceKey) async throws(RegistryError) -> RegistryChange

    /// Moves every membership of the device to `new` (a refreshed token of the
    /// same app and provider), keeping ids and overrides, and its row with
    /// them unless `new` has its own; where `new` is
    /// already on a channel, its own membership stays. `.updated`, `.unchanged`
    /// when `new` is the device's address, `.notFound` when it is on no channel.
    func replaceToken(_ device: DeviceKey, with new: Target.Address, at: Timestamp) async throws(RegistryError)
        -> RegistryChange

    /// The device's channels, in byte order.
    func channels(of device: DeviceKey) async throws(RegistryError) -> [String]

    /// One page of a channel's devices in device order (provider, address
    /// kind, address; byte order), the same on every channel of the app, so
    /// walks of several channels merge device by device; `providers` nil = all.
    /// A device that joins during a walk may or may not be in it; one that
    /// stays on the channel is returned exactly once.
    func devices(
        app: String, channel: String, providers: Set<Provider>?, after cursor: RegistryCursor?,
        limit: Int
    ) async throws(RegistryError) -> RegistryPage

    /// The devices on the channel, or with `channel` nil the app's registrations (memberships) on all channels.
    func count(app: String, channel: String?) async throws(RegistryError) -> Int

    /// Claims the events (app and id) received at `time`, each unless it was
    /// received after `since` (within the duplicate window): per key, in
    /// order, nil when this call claimed it, else when it was received. Of
    /// several instances claiming one key at once, exactly one gets nil.
    func claimEvents(_ keys: [EventKey], at time: Timestamp, since: Timestamp) async throws(RegistryError)
        -> [Timestamp?]

    /// Forgets the event ids received before `time` (their window is over).
    func forgetEvents(before time: Timestamp) async throws(RegistryError)

    /// The devices last registered before `seenBefore` (of `app`, or of every
    /// app), longest unseen first, at most `limit` (1 to ``RegistryLimits/maxPageSize``):
    /// those ``retireDevices(seenBefore:limit:)`` would retire. A Web Push
    /// subscription's keys are not read (`subscriptionKeys` is nil).
    func staleDevices(app: String?, seenBefore: Timestamp, limit: Int) async throws(RegistryError)
        -> [RegisteredDevice]

    /// Retires at most `limit` of the devices last registered before
    /// `seenBefore`, longest unseen first, in one transaction: each is taken
    /// off every channel of its app and its row forgotten. The devices
    /// retired; of several instances retiring at once, exactly one retires
    /// (and returns) each device, and a device registered meanwhile stays.
    func retireDevices(seenBefore: Timestamp, limit: Int) async throws(RegistryError) -> [RetiredDevice]

    /// Refuses further calls; calls already made finish, then the connections are closed.
    func close()
}

extension RegistryStore {
    /// Registers a device with no profile values (its row is created or its
    /// `last_seen` refreshed): an APNs or FCM device without attributes.
    public func register(
        _ device: DeviceKey, channels: [String], environment: String?, topic: String?, at time: Timestamp
    ) async throws(RegistryError) -> [String: RegistryChange] {
        try await register(
            device, profile: DeviceProfile(), channels: channels, environment: environment, topic: topic, at: time)
    }
}
