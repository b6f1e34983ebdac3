import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// unregister, unregisterDevice, replaceToken and channels(of:).
@Suite struct MembershipTests {
    @Test(arguments: Backend.allCases) func unregisterRemovesTheNamedChannels(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = Devices.fcm(1)
            _ = try await store.register(
                device, channels: ["a", "b", "c", "d"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.fcm(2), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            #expect(try await store.unregister(device, channels: ["b"]) == .removed(count: 1))
            #expect(try await store.unregister(device, channels: ["c", "d", "nope", "c"]) == .removed(count: 2))
            #expect(try await store.unregister(device, channels: ["b", "nope"]) == .notFound)
            #expect(try await store.channels(of: device) == ["a"])
            #expect(try await store.count(app: "chat", channel: "a") == 2)
            #expect(try await store.count(app: "chat", channel: "c") == 0)
            #expect(try await store.count(app: "chat", channel: nil) == 2)
            #expect(try await store.unregister(Devices.fcm(9), channels: ["a"]) == .notFound)
        }
    }

    @Test(arguments: Backend.allCases) func unregisterDeviceLeavesOtherAppsAlone(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let chat = Devices.apns(7)
            let shop = Devices.apns(7, app: "shop")
            _ = try await store.register(
                chat, channels: ["user:1", "room:general", "room:x"], environment: nil, topic: nil,
                at: Devices.time())
            _ = try await store.register(shop, channels: ["user:1"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.apns(8), channels: ["room:general"], environment: nil, topic: nil, at: Devices.time())
            #expect(try await store.unregisterDevice(chat) == .removed(count: 3))
            #expect(try await store.unregisterDevice(chat) == .notFound)
            #expect(try await store.channels(of: chat) == [])
            #expect(try await store.channels(of: shop) == ["user:1"])
            #expect(try await store.count(app: "chat", channel: "room:general") == 1)
            #expect(try await store.count(app: "chat", channel: nil) == 1)
            #expect(try await store.count(app: "shop", channel: nil) == 1)
        }
    }

    @Test(arguments: Backend.allCases) func replaceTokenMovesAndMerges(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let old = Devices.apns(1)
            let new = Devices.apns(2)
            _ = try await store.register(
                old, channels: ["a", "b", "c"], environment: "sandbox", topic: nil, at: Devices.time())
            _ = try await store.register(
                new, channels: ["b", "z"], environment: nil, topic: "com.example.other", at: Devices.time(5))
            let before = try await store.devices(app: "chat", channel: "a", providers: nil, after: nil, limit: 10)
                .registrations
            #expect(try await store.replaceToken(old, with: new.address, at: Devices.time(9)) == .updated)
            #expect(try await store.channels(of: old) == [])
            #expect(try await store.channels(of: new) == ["a", "b", "c", "z"])
            // A moved membership keeps its overrides and creation time; a merged one is the new token's own.
            let a = try await store.devices(app: "chat", channel: "a", providers: nil, after: nil, limit: 10)
                .registrations
            #expect(
                a == [
                    Registration(
                        device: new, channel: "a", environment: "sandbox", topic: nil, createdAt: Devices.time(),
                        updatedAt: Devices.time(9))
                ])
            #expect(before.count == 1)
            let b = try await store.devices(app: "chat", channel: "b", providers: nil, after: nil, limit: 10)
                .registrations
            #expect(
                b == [
                    Registration(
                        device: new, channel: "b", environment: nil, topic: "com.example.other",
                        createdAt: Devices.time(5), updatedAt: Devices.time(5))
                ])
            #expect(try await store.count(app: "chat", channel: "b") == 1)
            #expect(try await store.count(app: "chat", channel: nil) == 4)
            #expect(try await store.replaceToken(old, with: new.address, at: Devices.time()) == .notFound)
            #expect(try await store.replaceToken(new, with: new.address, at: Devices.time()) == .unchanged)
            await #expect(throws: RegistryError.self) {
                _ = try await store.replaceToken(new, with: .topic("news"), at: Devices.time())
            }
        }
    }

    @Test(arguments: Backend.allCases) func replaceTokenRespectsTheDeviceLimit(_ backend: Backend) async throws {
        try await TestDatabase.withStore(
            backend, limits: RegistryLimits(maxChannelsPerDevice: 3, maxDevicesPerChannel: 10)
        ) { store in
            _ = try await store.register(
                Devices.fcm(1), channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.fcm(2), channels: ["b", "c"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.fcm(3), channels: ["x", "y"], environment: nil, topic: nil, at: Devices.time())
            let error = await registryError { () throws(RegistryError) in
                try await store.replaceToken(Devices.fcm(3), with: Devices.fcm(2).address, at: Devices.time())
            }
            #expect(error?.kind == .limitExceeded)
            #expect(
                error?.message.contains("device chat/fcm token fcm-toke… is on 2 channels and would be on 4") == true,
                "\(String(describing: error))")
            #expect(
                try await store.replaceToken(Devices.fcm(1), with: Devices.fcm(2).address, at: Devices.time())
                    == .updated)
            #expect(try await store.channels(of: Devices.fcm(2)) == ["a", "b", "c"])
            #expect(try await store.channels(of: Devices.fcm(3)) == ["x", "y"])
        }
    }

    @Test(arguments: Backend.allCases) func channelsAreInByteOrder(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = Devices.fcm(1)
            let channels = ["room:b", "Room:a", "user:42", "room:a", "ü", "z", "room:ab"]
            _ = try await store.register(device, channels: channels, environment: nil, topic: nil, at: Devices.time())
            #expect(
                try await store.channels(of: device) == channels.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(try await store.channels(of: Devices.fcm(2)) == [])
        }
    }
}
