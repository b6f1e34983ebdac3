import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// register(batch:at:) — what `herald registry import` writes with — means
/// what one `register` per registration means, answers and counts included;
/// exportPage walks every device once with all its channels.
@Suite struct BatchRegisterTests {
    typealias Answer = Result<[String: RegistryChange], RegistryError>

    /// A mix: new devices, a device twice (the second sees the first),
    /// changed and unchanged overrides, an FCM FID, another app, a bad channel.
    static func registrations(_ offset: Int) -> [DeviceRegistration] {
        [
            DeviceRegistration(device: Devices.apns(offset + 1), channels: ["user:1", "room:a", "room:b"]),
            DeviceRegistration(device: Devices.apns(offset + 2), channels: ["room:a"], environment: "sandbox"),
            DeviceRegistration(device: Devices.apns(1), channels: ["room:a", "user:1"], environment: "sandbox"),
            DeviceRegistration(device: Devices.apns(offset + 1), channels: ["room:c", "room:a"]),
            DeviceRegistration(
                device: DeviceKey(app: "chat", provider: .fcm, address: .fid("cAbC-\(offset)")), channels: ["room:a"]),
            DeviceRegistration(device: Devices.fcm(offset, app: "shop"), channels: ["room:a", "caf\u{E9}"]),
            DeviceRegistration(device: Devices.apns(offset + 3), channels: ["room:\u{7}"]),
            DeviceRegistration(device: Devices.apns(2), channels: ["user:2"], topic: "com.example.chat.beta"),
            // A profile: its values set, then kept by a registration without them.
            DeviceRegistration(
                device: Devices.fcm(offset + 5), channels: ["user:1"],
                profile: DeviceProfile(timezone: "Europe/Paris", locale: "fr-FR", attributes: ["plan": "pro"])),
            DeviceRegistration(device: Devices.fcm(offset + 5), channels: ["user:2"]),
        ]
    }

    /// What one `register` per registration answers.
    static func oneByOne(_ batch: [DeviceRegistration], _ store: any RegistryStore) async -> [Answer] {
        var answers: [Answer] = []
        for r in batch {
            do throws(RegistryError) {
                answers.append(
                    .success(
                        try await store.register(
                            r.device, profile: r.profile, channels: r.channels, environment: r.environment,
                            topic: r.topic, at: Devices.time(7))))
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }

    /// Answers compared as callers see them: the changes, or the error's kind and message.
    static func same(_ a: [Answer], _ b: [Answer]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                switch (x, y) {
                case (.success(let p), .success(let q)): p == q
                case (.failure(let p), .failure(let q)): p.kind == q.kind && p.message == q.message
                default: false
                }
            }
    }

    /// Every registration of the store, walking export pages of `pageSize`.
    static func exported(_ store: any RegistryStore, app: String? = nil, pageSize: Int = 3) async throws
        -> [DeviceRegistration]
    {
        var all: [DeviceRegistration] = []
        var after: DeviceKey?
        repeat {
            let page = try await store.exportPage(app: app, after: after, limit: pageSize)
            all += page.registrations
            after = page.next
        } while after != nil
        return all
    }

    /// The counts `count` reads (herald_apps, herald_channels) of every app and channel the batches name.
    static func counts(_ store: any RegistryStore) async throws -> [Int] {
        var counts: [Int] = []
        for app in ["chat", "shop"] {
            counts.append(try await store.count(app: app, channel: nil))
            for channel in ["user:1", "user:2", "room:a", "room:b", "room:c", "caf\u{E9}"] {
                counts.append(try await store.count(app: app, channel: channel))
            }
        }
        return counts
    }

    @Test(arguments: Backend.allCases) func aBatchMeansOneRegisterEach(_ backend: Backend) async throws {
        // Roomy enough for the first batch; the second crosses room:a's limit and the app's.
        let limits = RegistryLimits(maxChannelsPerDevice: 4, maxDevicesPerChannel: 9, maxRegistrationsPerApp: 24)
        try await TestDatabase.with(backend) { batchDatabase in
            try await TestDatabase.with(backend) { oneDatabase in
                let batchStore = try batchDatabase.makeStore(limits: limits)
                let oneStore = try oneDatabase.makeStore(limits: limits)
                defer { batchStore.close(); oneStore.close() }
                for store in [batchStore, oneStore] {
                    _ = try await store.migrate()
                    _ = try await store.register(
                        Devices.apns(1), channels: ["room:a", "user:1"], environment: nil, topic: nil,
                        at: Devices.time())
                    _ = try await store.register(
                        Devices.apns(2), channels: ["user:2"], environment: nil, topic: "com.example.chat.beta",
                        at: Devices.time())
                }
                for offset in [10, 20, 30] {
                    let batch = Self.registrations(offset)
                    let batched = try await batchStore.register(batch: batch, at: Devices.time(7))
                    let single = await Self.oneByOne(batch, oneStore)
                    #expect(Self.same(batched, single), "batch \(offset): \(batched) against \(single)")
                    #expect(try await Self.exported(batchStore) == Self.exported(oneStore))
                    #expect(try await Self.counts(batchStore) == Self.counts(oneStore))
                    // The device rows too: created, refreshed, their profiles set or kept alike.
                    for device in Set(batch.map(\.device)) {
                        #expect(try await batchStore.device(device) == oneStore.device(device), "\(device)")
                    }
                }
                // The batches did reach the limits, and the bad channel was refused by name.
                let last = try await batchStore.register(batch: Self.registrations(40), at: Devices.time(8))
                let refusals = last.compactMap { if case .failure(let error) = $0 { error.message } else { nil } }
                #expect(refusals.contains { $0.contains("control character (U+0007)") }, "\(refusals)")
                #expect(refusals.contains { $0.contains("RegistryLimits.max") }, "\(refusals)")
                // The counters are the rows: every registration exported is counted once.
                let rows = try await Self.exported(batchStore, app: "chat").reduce(0) { $0 + $1.channels.count }
                #expect(try await batchStore.count(app: "chat", channel: nil) == rows)
            }
        }
    }

    @Test(arguments: Backend.allCases) func exportWalksEveryDeviceOnceWithAllItsChannels(_ backend: Backend)
        async throws
    {
        try await TestDatabase.withStore(backend) { store in
            var batch: [DeviceRegistration] = []
            for n in 0..<11 {
                batch.append(DeviceRegistration(device: Devices.apns(n), channels: ["user:\(n)", "room:all"]))
                batch.append(DeviceRegistration(device: Devices.fcm(n, app: "shop"), channels: ["room:all"]))
            }
            // One device whose channels differ in overrides: one entry per set, adjacent.
            batch.append(DeviceRegistration(device: Devices.apns(3), channels: ["beta"], environment: "sandbox"))
            let answers = try await store.register(batch: batch, at: Devices.time())
            #expect(answers.allSatisfy { if case .success = $0 { true } else { false } })

            let chat = try await Self.exported(store, app: "chat")
            #expect(chat.count == 12)
            #expect(chat.map(\.device.address.value) == chat.map(\.device.address.value).sorted())
            // Each with the device's row: no attributes stored is an empty map.
            let none = DeviceProfile(attributes: [:])
            #expect(
                chat[3]
                    == DeviceRegistration(
                        device: Devices.apns(3), channels: ["beta"], environment: "sandbox", profile: none))
            #expect(
                chat[4] == DeviceRegistration(device: Devices.apns(3), channels: ["room:all", "user:3"], profile: none))
            let shop = try await Self.exported(store, app: "shop", pageSize: 10_000)
            #expect(shop.count == 11)
            #expect(shop.allSatisfy { $0.channels == ["room:all"] })
            // Every app: chat's devices, then shop's.
            #expect(try await Self.exported(store, pageSize: 5) == chat + shop)
            #expect(try await Self.exported(store, app: "other") == [])
        }
    }
}
