import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// The device's own row (`herald_devices`, migration 5): created by its first
/// `register`, refreshed by every other, moved by `replaceToken`, gone with
/// its last membership; and built from the memberships of a registry that
/// had none.
@Suite struct DeviceRowTests {
    @Test(arguments: Backend.allCases) func registerCreatesThenRefreshesTheRow(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = Devices.fcm(1)
            #expect(try await store.device(device) == nil)
            _ = try await store.register(
                device, profile: DeviceProfile(timezone: "Europe/Paris", locale: "fr-FR", attributes: ["plan": "pro"]),
                channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            #expect(
                try await store.device(device)
                    == RegisteredDevice(
                        key: device, timezone: "Europe/Paris", locale: "fr-FR", attributes: ["plan": "pro"],
                        lastSeen: Devices.time(), createdAt: Devices.time()))
            // Another channel, nothing else given: last_seen moves, the rest stays.
            _ = try await store.register(device, channels: ["b"], environment: nil, topic: nil, at: Devices.time(7))
            let row = try #require(try await store.device(device))
            #expect(row.lastSeen == Devices.time(7))
            #expect(row.createdAt == Devices.time())
            #expect(row.timezone == "Europe/Paris")
            #expect(row.attributes == ["plan": "pro"])
            // The page of either channel carries the row.
            let page = try await store.devices(app: "chat", channel: "b", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.map(\.timezone) == ["Europe/Paris"])
            #expect(page.registrations.map(\.attributes) == [["plan": "pro"]])
        }
    }

    @Test(arguments: Backend.allCases) func theRowGoesWithTheLastMembership(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = Devices.apns(1)
            _ = try await store.register(
                device, channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.unregister(device, channels: ["a"])
            #expect(try await store.device(device) != nil)
            _ = try await store.unregister(device, channels: ["b"])
            #expect(try await store.device(device) == nil)
            _ = try await store.register(
                device, channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            #expect(try await store.unregisterDevice(device) == .removed(count: 2))
            #expect(try await store.device(device) == nil)
        }
    }

    @Test(arguments: Backend.allCases) func replaceTokenMovesTheRow(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let old = Devices.apns(1)
            let new = Devices.apns(2)
            _ = try await store.register(
                old, profile: DeviceProfile(locale: "de"), channels: ["a"], environment: nil, topic: nil,
                at: Devices.time())
            #expect(try await store.replaceToken(old, with: new.address, at: Devices.time(3)) == .updated)
            #expect(try await store.device(old) == nil)
            #expect(
                try await store.device(new)
                    == RegisteredDevice(key: new, locale: "de", lastSeen: Devices.time(3), createdAt: Devices.time()))
            // Onto an address with a row of its own: that row stays, the old one goes.
            let third = Devices.apns(3)
            _ = try await store.register(
                third, profile: DeviceProfile(locale: "it"), channels: ["b"], environment: nil, topic: nil,
                at: Devices.time(5))
            #expect(try await store.replaceToken(new, with: third.address, at: Devices.time(6)) == .updated)
            #expect(try await store.device(new) == nil)
            #expect(try await store.device(third)?.locale == "it")
        }
    }

    @Test(arguments: Backend.allCases) func subscriptionKeysAreKeptAndPaged(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = WebPushRegistrationTests.device("https://push.example.net/s/1")
            _ = try await store.register(
                device, profile: DeviceProfile(subscriptionKeys: WebPushRegistrationTests.keys), channels: ["user:42"],
                environment: nil,
                topic: nil, at: Devices.time())
            #expect(try await store.device(device)?.subscriptionKeys == WebPushRegistrationTests.keys)
            let page = try await store.devices(app: "chat", channel: "user:42", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.map(\.subscriptionKeys) == [WebPushRegistrationTests.keys])
        }
    }

    /// A registry of schema version 4 (memberships, no device rows) keeps
    /// every registration, and each device gets one row: created at its
    /// first membership, last seen at its latest change.
    @Test(arguments: Backend.allCases) func version5BuildsTheRowsOfTheDevicesAlreadyStored(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            defer { store.close() }
            _ = try await store.migrate()
            _ = try await store.register(
                Devices.apns(1), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.apns(1), channels: ["b"], environment: "sandbox", topic: nil, at: Devices.time(4))
            _ = try await store.register(
                Devices.fcm(2), channels: ["a", "b", "c"], environment: nil, topic: nil, at: Devices.time(2))
            _ = try await store.register(
                Devices.fcm(2, app: "shop"), channels: ["a"], environment: nil, topic: nil, at: Devices.time(3))
            let before = try await Self.everything(store)
            // Back to version 4: as an older Herald left it.
            let downgrade = "DROP TABLE herald_devices; DELETE FROM herald_schema_migrations WHERE version = 5;"
            switch backend {
            case .sqlite: try await ScriptRunner.run("/usr/bin/sqlite3", [database.location, downgrade])
            case .postgres: try await PostgresAdmin.execute(database.location, downgrade)
            }
            let again = try database.makeStore()
            defer { again.close() }
            // A device registered before version 5 counts as seen at the
            // upgrade (to the second): turning `expire_after` on then retires no live device.
            let upgrade = Timestamp(seconds: Timestamp.now().millisecondsSinceEpoch / 1000)
            #expect(try await again.migrate() == [5])
            #expect(try await Self.everything(again) == before)
            #expect(before.count == 6)
            let migrated = try #require(try await again.device(Devices.apns(1)))
            #expect(!(migrated.lastSeen < upgrade) && !(Timestamp.now() < migrated.lastSeen))
            #expect(
                migrated
                    == RegisteredDevice(key: Devices.apns(1), lastSeen: migrated.lastSeen, createdAt: Devices.time()))
            #expect(
                try await again.device(Devices.fcm(2))
                    == RegisteredDevice(key: Devices.fcm(2), lastSeen: migrated.lastSeen, createdAt: Devices.time(2)))
            #expect(try await again.device(Devices.fcm(2, app: "shop"))?.lastSeen == migrated.lastSeen)
            #expect(try await again.count(app: "chat", channel: nil) == 5)
            // The rows behave as rows made by `register`.
            _ = try await again.unregisterDevice(Devices.apns(1))
            #expect(try await again.device(Devices.apns(1)) == nil)
        }
    }

    /// Every registration of apps chat and shop on channels a, b, c.
    static func everything(_ store: any RegistryStore) async throws -> [Registration] {
        var all: [Registration] = []
        for app in ["chat", "shop"] {
            for channel in ["a", "b", "c"] {
                all += try await store.walk(app: app, channel: channel, pageSize: 2).registrations
            }
        }
        return all
    }
}
