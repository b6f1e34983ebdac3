import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Devices not registered again for a while: listed longest unseen first,
/// retired in bounded batches (memberships, counts and row gone), a device
/// registered since kept, and each retired by exactly one of several
/// instances. The time is the caller's (`seenBefore`), so the tests set it.
///
/// Each test has apps of its own: PostgreSQL's advisory locks are the
/// database's, not the schema's, so a device another test registers at
/// that moment (same app and token) would be left for the next batch.
@Suite struct RetirementTests {
    static func seconds(_ n: Int64) -> Timestamp { Devices.time(n * 1_000_000) }

    @Test(arguments: Backend.allCases) func aDeviceNotSeenIsRetiredAndOneSeenIsKept(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let stale = Devices.apns(1, app: "expiry")
            let seen = Devices.fcm(2, app: "expiry")
            let other = Devices.apns(3, app: "expiry-shop")
            for device in [stale, seen] {
                _ = try await store.register(
                    device, channels: ["user:42", "room:general"], environment: nil, topic: nil, at: Self.seconds(0))
            }
            _ = try await store.register(
                other, channels: ["user:42"], environment: nil, topic: nil, at: Self.seconds(1))
            // `seen` registers again (on one channel, nothing changed): its last_seen moves.
            #expect(
                try await store.register(
                    seen, channels: ["user:42"], environment: nil, topic: nil, at: Self.seconds(20))
                    == ["user:42": .unchanged])

            let listed = try await store.staleDevices(app: nil, seenBefore: Self.seconds(10), limit: 100)
            #expect(listed.map(\.key) == [stale, other])
            #expect(listed.map(\.lastSeen) == [Self.seconds(0), Self.seconds(1)])
            #expect(
                try await store.staleDevices(app: "expiry-shop", seenBefore: Self.seconds(10), limit: 100).map(\.key)
                    == [
                        other
                    ])

            let retired = try await store.retireDevices(seenBefore: Self.seconds(10), limit: 500)
            #expect(
                retired == [
                    RetiredDevice(device: stale, lastSeen: Self.seconds(0), channels: ["room:general", "user:42"]),
                    RetiredDevice(device: other, lastSeen: Self.seconds(1), channels: ["user:42"]),
                ])
            #expect(try await store.retireDevices(seenBefore: Self.seconds(10), limit: 500).isEmpty)
            #expect(try await store.device(stale) == nil)
            #expect(try await store.channels(of: stale).isEmpty)
            #expect(try await store.channels(of: seen) == ["room:general", "user:42"])
            #expect(try await store.count(app: "expiry", channel: "user:42") == 1)
            #expect(try await store.count(app: "expiry", channel: "room:general") == 1)
            #expect(try await store.count(app: "expiry", channel: nil) == 2)
            #expect(try await store.count(app: "expiry-shop", channel: nil) == 0)

            let result = RegistryResult.expired(retired[0], at: Self.seconds(30))
            #expect(result.routingKey == "registry_expired.apns.expiry")
            #expect(
                result.jsonValue.jsonString
                    == #"{"result":"registry_expired","app":"expiry","provider":"apns","token":"\#(stale.address.value)","#
                    + #""channels":["room:general","user:42"],"change":"removed","removed":2,"#
                    + #""last_seen":"\#(Self.seconds(0).rfc3339(fractionDigits: 3))","at":"\#(Self.seconds(30).rfc3339(fractionDigits: 3))"}"#
            )
        }
    }

    @Test(arguments: Backend.allCases) func batchesAreBounded(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            for number in 1...5 {
                _ = try await store.register(
                    Devices.fcm(number, app: "batches"), channels: ["c"], environment: nil, topic: nil,
                    at: Self.seconds(Int64(number)))
            }
            var batches: [[DeviceKey]] = []
            repeat {
                batches.append(try await store.retireDevices(seenBefore: Self.seconds(100), limit: 2).map(\.device))
            } while batches.last?.isEmpty == false
            let devices = (1...5).map { Devices.fcm($0, app: "batches") }
            #expect(batches == [[devices[0], devices[1]], [devices[2], devices[3]], [devices[4]], []])
            #expect(try await store.count(app: "batches", channel: "c") == 0)
            let error = await registryError { () async throws(RegistryError) in
                try await store.retireDevices(seenBefore: Self.seconds(100), limit: 0)
            }
            #expect(error?.kind == .invalidInput)
        }
    }

    /// Two instances retiring the same devices at once: each device is
    /// retired, and reported, by exactly one of them.
    @Test(arguments: Backend.allCases) func eachDeviceIsRetiredOnceAcrossInstances(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let first = try database.makeStore()
            let second = try database.makeStore()
            defer {
                first.close()
                second.close()
            }
            _ = try await first.migrate()
            let devices = (1...60).map { Devices.apns($0, app: "instances") }
            for (index, device) in devices.enumerated() {
                _ = try await first.register(
                    device, channels: ["c\(index % 3)", "all"], environment: nil, topic: nil, at: Self.seconds(0))
            }
            @Sendable func drain(_ store: any RegistryStore) async throws -> [DeviceKey] {
                var retired: [DeviceKey] = []
                while true {
                    let batch = try await store.retireDevices(seenBefore: Self.seconds(5), limit: 7)
                    if batch.isEmpty,
                        try await store.staleDevices(app: nil, seenBefore: Self.seconds(5), limit: 1).isEmpty
                    {
                        return retired
                    }
                    retired += batch.map(\.device)
                }
            }
            async let a = drain(first)
            async let b = drain(second)
            let (fromFirst, fromSecond) = try await (a, b)
            #expect(fromFirst.count + fromSecond.count == devices.count)
            #expect(Set(fromFirst + fromSecond) == Set(devices))
            #expect(try await first.count(app: "instances", channel: nil) == 0)
            #expect(try await first.count(app: "instances", channel: "all") == 0)
        }
    }
}
