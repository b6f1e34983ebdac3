import Foundation
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// A Web Push subscription's `auth` at rest: encrypted with the store's
/// key (AES-256-GCM), read back in the clear by a store with that key, and
/// a clear error naming the device (masked) for a store with another key
/// or none; never a crash, and never a failed page.
@Suite struct SecretsAtRestTests {
    static let key = try! RegistrySecretKey(bytes: (0..<32).map { UInt8($0) })
    static let otherKey = try! RegistrySecretKey(bytes: (0..<32).map { UInt8(255 - $0) })
    static let device = WebPushRegistrationTests.device("https://push.example.net/push/v2/Zk3aB9xQ1rT7")
    static let keys = WebPushRegistrationTests.keys

    static func register(_ store: any RegistryStore) async throws {
        _ = try await store.register(
            device, profile: DeviceProfile(subscriptionKeys: keys), channels: ["user:42"], environment: nil,
            topic: nil, at: Devices.time())
    }

    /// Every byte SQLite keeps for the database: the file, its write-ahead log and its shared memory.
    static func sqliteBytes(_ path: String) -> Data {
        ["", "-wal", "-shm"].reduce(into: Data()) { all, suffix in
            all += FileManager.default.contents(atPath: path + suffix) ?? Data()
        }
    }

    @Test func theSQLiteFileHoldsTheSecretOnlyWithoutAKey() async throws {
        let secret = Data(Self.keys.auth.utf8)
        for key in [nil, Self.key] {
            try await TestDatabase.with(.sqlite) { database in
                let store = try database.makeStore(secretKey: key)
                defer { store.close() }
                _ = try await store.migrate()
                try await Self.register(store)
                #expect(try await store.device(Self.device)?.subscriptionKeys == Self.keys)
                // Read while the store is open: its closing checkpoints the log into the file meanwhile.
                let bytes = Self.sqliteBytes(database.location)
                #expect(bytes.range(of: Data(Self.keys.p256dh.utf8)) != nil, "the test reads the right file")
                #expect((bytes.range(of: secret) != nil) == (key == nil), "key: \(String(describing: key))")
            }
        }
    }

    @Test(arguments: Backend.allCases) func anotherKeyOrNoneIsAClearErrorNamingTheDevice(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore(secretKey: Self.key)
            defer { store.close() }
            _ = try await store.migrate()
            try await Self.register(store)
            let page = try await store.devices(app: "chat", channel: "user:42", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.map(\.subscriptionKeys) == [Self.keys])
            for key in [Self.otherKey, nil] {
                let other = try database.makeStore(secretKey: key)
                defer { other.close() }
                let error = await registryError { () throws(RegistryError) in try await other.device(Self.device) }
                let message = try #require(error?.message)
                #expect(message.hasPrefix("device \(Self.device): its stored Web Push auth secret cannot be read: "))
                #expect(!message.contains("Zk3aB9xQ1rT7") && !message.contains(Self.keys.auth))
                // A page still reads: the device comes without keys, saying why.
                let read = try await other.devices(
                    app: "chat", channel: "user:42", providers: nil, after: nil, limit: 10
                ).registrations
                #expect(read.count == 1 && read.first?.subscriptionKeys == nil)
                #expect(read.first?.unreadableKeys == message)
            }
        }
    }

    @Test func aKeyIsThirtyTwoBytesAndNeverShown() throws {
        #expect(throws: RegistryError.self) { try RegistrySecretKey(bytes: [1, 2, 3]) }
        #expect(throws: RegistryError.self) { try RegistrySecretKey(base64: "not base64!") }
        let text = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        _ = try RegistrySecretKey(base64: " \(text)\n")
        #expect("\(Self.key)" == "RegistrySecretKey(32 bytes)")
    }
}
