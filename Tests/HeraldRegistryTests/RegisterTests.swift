import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// register: idempotent per channel, the overrides it keeps, and what it refuses.
@Suite struct RegisterTests {
    @Test(arguments: Backend.allCases) func registerIsIdempotentPerChannel(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let device = Devices.apns(1)
            let first = try await store.register(
                device, channels: ["user:42", "room:general"], environment: nil, topic: nil,
                at: Devices.time())
            #expect(first == ["user:42": .created, "room:general": .created])
            let again = try await store.register(
                device, channels: ["user:42", "room:general", "room:general"], environment: nil,
                topic: nil, at: Devices.time(1))
            #expect(again == ["user:42": .unchanged, "room:general": .unchanged])
            let changed = try await store.register(
                device, channels: ["user:42", "room:new"], environment: "sandbox",
                topic: "com.example.chat.beta", at: Devices.time(2))
            #expect(changed == ["user:42": .updated, "room:new": .created])
            #expect(
                try await store.register(
                    device, channels: ["user:42"], environment: "sandbox", topic: "com.example.chat.beta",
                    at: Devices.time(3)) == ["user:42": .unchanged])

            let page = try await store.devices(app: "chat", channel: "user:42", providers: nil, after: nil, limit: 10)
            #expect(
                page.registrations == [
                    Registration(
                        device: device, channel: "user:42", environment: "sandbox",
                        topic: "com.example.chat.beta", createdAt: Devices.time(),
                        updatedAt: Devices.time(2))
                ])
            #expect(page.next == nil)
            #expect(try await store.count(app: "chat", channel: "user:42") == 1)
            #expect(try await store.count(app: "chat", channel: nil) == 3)
            #expect(try await store.count(app: "other", channel: nil) == 0)
        }
    }

    @Test(arguments: Backend.allCases) func fidsAndTokensAreDistinctDevices(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let token = DeviceKey(app: "chat", provider: .fcm, address: .token("cAbC-1_x"))
            let fid = DeviceKey(app: "chat", provider: .fcm, address: .fid("cAbC-1_x"))
            #expect(
                try await store.register(token, channels: ["c"], environment: nil, topic: nil, at: Devices.time()) == [
                    "c": .created
                ])
            #expect(
                try await store.register(fid, channels: ["c"], environment: nil, topic: nil, at: Devices.time()) == [
                    "c": .created
                ])
            let page = try await store.devices(app: "chat", channel: "c", providers: nil, after: nil, limit: 10)
            // Device order: provider, then address kind ("fid" before "token"), then address.
            #expect(page.registrations.map(\.device) == [fid, token])
        }
    }

    @Test(arguments: Backend.allCases) func invalidArgumentsAreRefusedByName(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store async throws in
            let device = Devices.apns(1)
            func refusal(_ device: DeviceKey, _ channels: [String], environment: String? = nil, topic: String? = nil)
                async -> RegistryError?
            {
                await registryError { () throws(RegistryError) in
                    try await store.register(
                        device, channels: channels, environment: environment, topic: topic, at: Devices.time())
                }
            }
            let cases: [(RegistryError?, String)] = [
                (await refusal(device, []), "no channels given"),
                (await refusal(device, [""]), "channel is empty"),
                (await refusal(device, [String(repeating: "x", count: 256)]), "is 256 bytes, over the limit of 255"),
                (await refusal(device, ["user:\u{7}42"]), "channel has a control character (U+0007) at byte 5"),
                (await refusal(device, ["room\u{85}"]), "control character (U+0085)"),
                (await refusal(device, ["user:42\u{202E}"]), "channel has a format character (U+202E) at byte 7"),
                (await refusal(device, ["user:\u{200B}42"]), "channel has a format character (U+200B) at byte 5"),
                (await refusal(device, ["caf\u{65}\u{301}"]), "is not in Unicode NFC"),
                (
                    await refusal(
                        DeviceKey(app: "chat", provider: .apns, address: .token(String(repeating: "ab", count: 2048))),
                        ["c"]),
                    "the device token is 4096 hex digits, over the limit of 400 for an APNs device token"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .fcm, address: .topic("news")), ["c"]),
                    "a topic is not a device"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .fcm, address: .condition("'a' in topics")), ["c"]),
                    "a condition is not a device"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .apns, address: .fid("abc")), ["c"]),
                    "APNs has no FIDs"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .apns, address: .token("not-hex")), ["c"]),
                    "an APNs device token is hexadecimal"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .fcm, address: .token("")), ["c"]),
                    "the device token is empty"
                ),
                (
                    await refusal(DeviceKey(app: "chat", provider: .fcm, address: .token("a b")), ["c"]),
                    "other than printable ASCII"
                ),
                (await refusal(DeviceKey(app: "", provider: .fcm, address: .token("t")), ["c"]), "app is empty"),
                (await refusal(device, ["c"], environment: "staging"), "unknown APNs environment \"staging\""),
                (await refusal(device, ["c"], topic: ""), #"topic "" is empty"#),
                (await refusal(Devices.fcm(1), ["c"], environment: "production"), "an fcm device has neither"),
            ]
            for (error, expected) in cases {
                #expect(error?.kind == .invalidInput, "\(expected)")
                #expect(error?.operation == "register")
                #expect(
                    error?.message.contains(expected) == true, "\(String(describing: error)) should say \(expected)")
                #expect(error?.isRetryable == false)
            }
            #expect(try await store.count(app: "chat", channel: nil) == 0)
            await #expect(throws: RegistryError.self) {
                _ = try await store.devices(app: "chat", channel: "c", providers: nil, after: nil, limit: 0)
            }
            // UTF-8 beyond ASCII is fine, up to 255 bytes.
            let accented = String(repeating: "é", count: 127)
            #expect(
                try await store.register(device, channels: [accented], environment: nil, topic: nil, at: Devices.time())
                    == [accented: .created])
        }
    }

    /// An app holds at most `maxRegistrationsPerApp` registrations over all
    /// its channels, counted as they come and go, so commands cannot fill the database.
    @Test(arguments: Backend.allCases) func anAppHoldsAtMostItsRegistrationLimit(_ backend: Backend) async throws {
        let limits = RegistryLimits(maxChannelsPerDevice: 10, maxDevicesPerChannel: 10, maxRegistrationsPerApp: 3)
        try await TestDatabase.withStore(backend, limits: limits) { store in
            let (one, two) = (Devices.apns(1), Devices.apns(2))
            _ = try await store.register(one, channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            let over = await registryError { () throws(RegistryError) in
                try await store.register(two, channels: ["a", "c"], environment: nil, topic: nil, at: Devices.time())
            }
            #expect(over?.kind == .limitExceeded)
            #expect(
                over?.message
                    == "app \"chat\" would hold more than 3 registrations with these 2, the most an app may hold "
                    + "(RegistryLimits.maxRegistrationsPerApp); device chat/apns token 00000000… was not added",
                "\(String(describing: over))")
            // Nothing of the refused call was written, and the count did not move.
            #expect(try await store.channels(of: two) == [])
            #expect(try await store.count(app: "chat", channel: nil) == 2)
            #expect(try await store.count(app: "chat", channel: "a") == 1)
            // The last place is taken; a repeat adds nothing; another app has its own count.
            #expect(
                try await store.register(two, channels: ["a"], environment: nil, topic: nil, at: Devices.time()) == [
                    "a": .created
                ])
            #expect(
                try await store.register(one, channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
                    == ["a": .unchanged, "b": .unchanged])
            #expect(
                try await store.register(
                    Devices.apns(3, app: "shop"), channels: ["a", "b", "c"], environment: nil, topic: nil,
                    at: Devices.time()
                ).count == 3)
            await #expect(throws: RegistryError.self) {
                _ = try await store.register(
                    Devices.apns(3), channels: ["z"], environment: nil, topic: nil, at: Devices.time())
            }
            // Every way out gives the places back: unregister, a merging replace_token, unregister_device.
            #expect(try await store.unregister(one, channels: ["b"]) == .removed(count: 1))
            #expect(try await store.replaceToken(one, with: two.address, at: Devices.time()) == .updated)
            #expect(try await store.count(app: "chat", channel: nil) == 1)
            #expect(try await store.unregisterDevice(two) == .removed(count: 1))
            #expect(try await store.count(app: "chat", channel: nil) == 0)
            #expect(
                try await store.register(
                    Devices.apns(3), channels: ["x", "y", "z"], environment: nil, topic: nil,
                    at: Devices.time()
                ).count == 3)
        }
    }

    @Test(arguments: Backend.allCases) func limitsNameTheChannelOrDeviceAndWriteNothing(_ backend: Backend) async throws
    {
        let limits = RegistryLimits(maxChannelsPerDevice: 3, maxDevicesPerChannel: 2)
        try await TestDatabase.withStore(backend, limits: limits) { store in
            let device = Devices.apns(1)
            _ = try await store.register(
                device, channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            let tooMany = await registryError { () throws(RegistryError) in
                try await store.register(
                    device, channels: ["a", "c", "d"], environment: "sandbox", topic: nil, at: Devices.time(1))
            }
            #expect(tooMany?.kind == .limitExceeded)
            #expect(
                tooMany?.message.contains("device chat/apns token 00000000… is on 2 channels and would be on 4")
                    == true,
                "\(String(describing: tooMany))")
            #expect(tooMany?.message.contains("at most 3 (RegistryLimits.maxChannelsPerDevice)") == true)
            // Nothing of the refused call stayed: not the new channel, not the changed override.
            #expect(try await store.channels(of: device) == ["a", "b"])
            let page = try await store.devices(app: "chat", channel: "a", providers: nil, after: nil, limit: 10)
            #expect(page.registrations.first?.environment == nil)
            await #expect(
                throws: RegistryError(
                    .limitExceeded, operation: "register",
                    message:
                        "5 channels given; a device may be on at most 3 (RegistryLimits.maxChannelsPerDevice)")
            ) {
                _ = try await store.register(
                    device, channels: ["1", "2", "3", "4", "5"], environment: nil, topic: nil, at: Devices.time())
            }

            _ = try await store.register(
                Devices.apns(2), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            let full = await registryError { () throws(RegistryError) in
                try await store.register(
                    Devices.apns(3), channels: ["c", "a"], environment: nil, topic: nil, at: Devices.time())
            }
            #expect(full?.kind == .limitExceeded)
            #expect(
                full?.message.contains("channel \"a\" of app \"chat\" holds 2 devices") == true,
                "\(String(describing: full))")
            #expect(full?.message.contains("RegistryLimits.maxDevicesPerChannel") == true)
            #expect(try await store.channels(of: Devices.apns(3)) == [])
            #expect(try await store.count(app: "chat", channel: "c") == 0)
            // Another app's channel of the same name is another channel.
            #expect(
                try await store.register(
                    Devices.apns(3, app: "shop"), channels: ["a"], environment: nil, topic: nil,
                    at: Devices.time()) == ["a": .created])
            // Leaving makes room.
            #expect(try await store.unregister(Devices.apns(2), channels: ["a"]) == .removed(count: 1))
            #expect(
                try await store.register(
                    Devices.apns(3), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
                    == ["a": .created])
        }
    }
}
