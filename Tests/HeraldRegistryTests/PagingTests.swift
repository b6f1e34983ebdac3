import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// devices(app:channel:...): keyset pages in device order, filtered by provider.
@Suite struct PagingTests {
    /// Device order: provider, address kind, address, byte for byte.
    static func inDeviceOrder(_ devices: [DeviceKey]) -> [DeviceKey] {
        devices.sorted {
            [$0.provider.rawValue, $0.address.field, $0.address.value].lexicographicallyPrecedes(
                [$1.provider.rawValue, $1.address.field, $1.address.value]
            ) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    @Test(arguments: Backend.allCases) func pagingReturnsEachDeviceOnceInOrder(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            // Every third device is an FCM one, registered in an order that is not device order.
            let registered = (0..<2500).map { $0 % 3 == 0 ? Devices.fcm($0) : Devices.apns(2500 - $0) }
            for (i, device) in registered.enumerated() {
                _ = try await store.register(
                    device, channels: ["room:general"], environment: nil, topic: nil,
                    at: Devices.time(Int64(i)))
            }
            let devices = Self.inDeviceOrder(registered)
            let times = Dictionary(uniqueKeysWithValues: registered.enumerated().map { ($1, Devices.time(Int64($0))) })
            _ = try await store.register(
                Devices.apns(1, app: "shop"), channels: ["room:general"], environment: nil, topic: nil,
                at: Devices.time())

            let walk = try await store.walk(app: "chat", channel: "room:general", pageSize: 1000)
            #expect(walk.pages == [1000, 1000, 500])
            #expect(walk.registrations.map(\.device) == devices)
            #expect(walk.registrations.map(\.createdAt) == devices.map { times[$0] })

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

    /// Every channel of an app is paged in the same device order, so a walk
    /// of several channels merged device by device meets a device on several
    /// of them in one place, and a cursor from one channel (or made from a
    /// device) says where to go on in another.
    @Test(arguments: Backend.allCases) func channelsShareOneDeviceOrder(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            var registered: [DeviceKey] = []
            for n in [7, 3, 12, 1, 30, 22, 5] {
                registered += [
                    Devices.apns(n), Devices.fcm(n), DeviceKey(app: "chat", provider: .fcm, address: .fid("F\(n)")),
                ]
            }
            for (i, device) in registered.enumerated() {
                let channels = i % 2 == 0 ? ["even", "all"] : ["odd", "all"]
                _ = try await store.register(
                    device, channels: channels, environment: nil, topic: nil, at: Devices.time())
            }
            let all = try await store.walk(app: "chat", channel: "all", pageSize: 4).registrations.map(\.device)
            let even = try await store.walk(app: "chat", channel: "even", pageSize: 3).registrations.map(\.device)
            let odd = try await store.walk(app: "chat", channel: "odd", pageSize: 5).registrations.map(\.device)
            #expect(all == Self.inDeviceOrder(registered))
            #expect(even == Self.inDeviceOrder(even) && odd == Self.inDeviceOrder(odd))
            #expect(Self.inDeviceOrder(even + odd) == all)
            // A cursor made from a device goes on after it, on any channel.
            let after = try await store.devices(
                app: "chat", channel: "even", providers: nil, after: RegistryCursor(after: all[9]), limit: 100)
            #expect(after.registrations.map(\.device) == even.filter { (all.firstIndex(of: $0) ?? 0) > 9 })
            #expect(RegistryCursor("fcm:token:abc:def")?.description == "fcm:token:abc:def")
            #expect(RegistryCursor("fcm:token") == nil && RegistryCursor("fcm::x") == nil)
        }
    }
}
