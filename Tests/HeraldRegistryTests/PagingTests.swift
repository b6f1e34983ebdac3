import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// devices(app:channel:...): keyset pages in a stable order, filtered by provider.
@Suite struct PagingTests {
    @Test(arguments: Backend.allCases) func pagingReturnsEachDeviceOnceInOrder(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            // Every third device is an FCM one; registered one after another, so ids follow i.
            let devices = (0..<2500).map { $0 % 3 == 0 ? Devices.fcm($0) : Devices.apns($0) }
            for (i, device) in devices.enumerated() {
                _ = try await store.register(
                    device, channels: ["room:general"], environment: nil, topic: nil,
                    at: Devices.time(Int64(i)))
            }
            _ = try await store.register(
                Devices.apns(1, app: "shop"), channels: ["room:general"], environment: nil, topic: nil,
                at: Devices.time())

            let walk = try await store.walk(app: "chat", channel: "room:general", pageSize: 1000)
            #expect(walk.pages == [1000, 1000, 500])
            #expect(walk.registrations.map(\.device) == devices)
            #expect(walk.registrations.map(\.createdAt) == (0..<2500).map { Devices.time(Int64($0)) })

            let fcm = try await store.walk(app: "chat", channel: "room:general", providers: [.fcm], pageSize: 300)
            #expect(fcm.registrations.map(\.device) == devices.filter { $0.provider == .fcm })
            #expect(fcm.pages == [300, 300, 234])
            let apns = try await store.walk(app: "chat", channel: "room:general", providers: [.apns], pageSize: 1000)
            #expect(apns.registrations.map(\.device) == devices.filter { $0.provider == .apns })
            let both = try await store.walk(
                app: "chat", channel: "room:general", providers: [.apns, .fcm], pageSize: 2500)
            #expect(both.pages == [2500])
            #expect(both.registrations.map(\.device) == devices)
            let none = try await store.devices(
                app: "chat", channel: "room:general", providers: [], after: nil, limit: 10)
            #expect(none.registrations.isEmpty && none.next == nil)

            #expect(try await store.count(app: "chat", channel: "room:general") == 2500)
            #expect(try await store.count(app: "chat", channel: "room:other") == 0)
            #expect(try await store.count(app: "chat", channel: nil) == 2500)
            #expect(try await store.count(app: "shop", channel: "room:general") == 1)
        }
    }

    @Test(arguments: Backend.allCases) func aWalkSurvivesChangesBehindAndAheadOfIt(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            for i in 0..<10 {
                _ = try await store.register(
                    Devices.fcm(i), channels: ["c"], environment: nil, topic: nil, at: Devices.time())
            }
            let first = try await store.devices(app: "chat", channel: "c", providers: nil, after: nil, limit: 4)
            #expect(first.registrations.map(\.device) == (0..<4).map { Devices.fcm($0) })
            let cursor = try #require(first.next)
            #expect(RegistryCursor(cursor.description) == cursor)
            #expect(RegistryCursor("not a cursor") == nil)
            // Removed behind the cursor, moved to a new token ahead of it: neither is skipped nor repeated.
            _ = try await store.unregisterDevice(Devices.fcm(1))
            _ = try await store.replaceToken(Devices.fcm(6), with: Devices.fcm(60).address, at: Devices.time())
            let rest = try await store.walk(app: "chat", channel: "c", pageSize: 4)
            #expect(rest.registrations.count == 9)
            var after: [DeviceKey] = []
            var next: RegistryCursor? = cursor
            while let position = next {
                let page = try await store.devices(app: "chat", channel: "c", providers: nil, after: position, limit: 4)
                after += page.registrations.map(\.device)
                next = page.next
            }
            #expect(after == [4, 5, 60, 7, 8, 9].map { Devices.fcm($0) })
        }
    }
}
