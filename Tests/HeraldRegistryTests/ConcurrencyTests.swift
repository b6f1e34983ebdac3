import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Two stores on one database, as two Herald instances: no lost or doubled
/// registration, and limits that hold under a race.
@Suite struct ConcurrencyTests {
    @Test(arguments: Backend.allCases) func twoStoresRegisterAThousandDevicesOnOneChannel(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database in
            let stores = try (0..<2).map { _ in try database.makeStore(poolSize: 4) }
            defer { stores.forEach { $0.close() } }
            _ = try await stores[0].migrate()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<1000 {
                    let store = stores[i % 2]
                    group.addTask {
                        let changes = try await store.register(
                            Devices.fcm(i), channels: ["room:general"], environment: nil,
                            topic: nil, at: Devices.time())
                        #expect(changes == ["room:general": .created])
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[0].count(app: "chat", channel: "room:general") == 1000)
            #expect(try await stores[1].count(app: "chat", channel: nil) == 1000)
            let walk = try await stores[1].walk(app: "chat", channel: "room:general", pageSize: 1000)
            #expect(Set(walk.registrations.map(\.device)) == Set((0..<1000).map { Devices.fcm($0) }))
        }
    }

    @Test(arguments: Backend.allCases) func theSameDeviceFromTwoStoresIsCreatedOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let stores = try (0..<2).map { _ in try database.makeStore(poolSize: 4) }
            defer { stores.forEach { $0.close() } }
            _ = try await stores[0].migrate()
            let changes = try await withThrowingTaskGroup(of: [String: RegistryChange].self) { group in
                for i in 0..<400 {
                    group.addTask {
                        try await stores[i % 2].register(
                            Devices.apns(i / 2), channels: ["a", "b"], environment: nil, topic: nil,
                            at: Devices.time())
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(changes.count { $0 == ["a": .created, "b": .created] } == 200)
            #expect(changes.count { $0 == ["a": .unchanged, "b": .unchanged] } == 200)
            #expect(try await stores[0].count(app: "chat", channel: "a") == 200)
            #expect(try await stores[1].count(app: "chat", channel: nil) == 400)
        }
    }

    @Test(arguments: Backend.allCases) func limitsHoldUnderARace(_ backend: Backend) async throws {
        let limits = RegistryLimits(maxChannelsPerDevice: 10, maxDevicesPerChannel: 25)
        try await TestDatabase.with(backend) { database in
            let stores = try (0..<2).map { _ in try database.makeStore(limits: limits, poolSize: 4) }
            defer { stores.forEach { $0.close() } }
            _ = try await stores[0].migrate()
            // 60 devices race for a channel of 25; one device races onto 30 channels, 10 allowed.
            let outcomes = try await withThrowingTaskGroup(of: RegistryError.Kind?.self) { group in
                for i in 0..<60 {
                    group.addTask {
                        await registryError { () throws(RegistryError) in
                            try await stores[i % 2].register(
                                Devices.fcm(i), channels: ["full"], environment: nil, topic: nil,
                                at: Devices.time())
                        }?.kind
                    }
                }
                for i in 0..<30 {
                    group.addTask {
                        await registryError { () throws(RegistryError) in
                            try await stores[i % 2].register(
                                Devices.apns(1), channels: ["c\(i)"], environment: nil, topic: nil,
                                at: Devices.time())
                        }?.kind
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count { $0 == nil } == 35)
            #expect(outcomes.count { $0 == .limitExceeded } == 55)
            #expect(try await stores[0].count(app: "chat", channel: "full") == 25)
            #expect(try await stores[1].channels(of: Devices.apns(1)).count == 10)
        }
    }
}
