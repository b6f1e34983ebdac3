import Foundation
import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviders
import HeraldRegistry
import HeraldTestSupport
import Testing

/// `RegistryCommand`: what a command body decodes to, every refusal with its
/// exact reason, and what applying it to a store says (the result's JSON).
@Suite struct RegistryCommandTests {
    static let rules = RegistryCommand.Rules(
        apps: ["chat": [.apns, .fcm, Provider(rawValue: "webpush")], "shop": [.fcm]], providers: .registered)
    static let token = String(repeating: "a1", count: 32)

    func decode(
        _ body: String, _ routingKey: String = "register", fallbackID: String? = nil,
        rules: RegistryCommand.Rules = rules
    ) throws(RegistryCommandError) -> RegistryCommand {
        try RegistryCommand.decode(Array(body.utf8), routingKey: routingKey, fallbackID: fallbackID, rules: rules)
    }

    func refusal(_ body: String, _ routingKey: String = "register", rules: RegistryCommand.Rules = rules) -> String? {
        do {
            _ = try decode(body, routingKey, rules: rules)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func eachKindDecodes() throws {
        let register = try decode(
            #"""
            {"id": "cmd-1", "app": "chat", "provider": "ios", "token": "\#(Self.token)", "channels": ["user:42", "room:1", "user:42"],
             "environment": "sandbox", "topic": "com.example.chat.beta"}
            """#)
        #expect(
            register
                == RegistryCommand(
                    id: "cmd-1", device: DeviceKey(app: "chat", provider: .apns, address: .token(Self.token)),
                    action: .register(
                        channels: ["user:42", "room:1"], environment: "sandbox",
                        topic: "com.example.chat.beta")))
        #expect(register.kind == .register)
        let unregister = try decode(
            #"{"app": "shop", "provider": "fcm", "fid": "cAbC-1_x", "channels": ["a"], "topic": null}"#,
            "unregister", fallbackID: "message-7")
        #expect(
            unregister
                == RegistryCommand(
                    id: "message-7", device: DeviceKey(app: "shop", provider: .fcm, address: .fid("cAbC-1_x")),
                    action: .unregister(channels: ["a"])))
        #expect(
            try decode(#"{"app": "chat", "provider": "android", "token": "t-1"}"#, "unregister_device").action
                == .unregisterDevice)
        #expect(
            try decode(#"{"app": "chat", "provider": "fcm", "token": "t-1", "new_token": "t-2"}"#, "replace_token")
                .action
                == .replaceToken(with: .token("t-2")))
    }

    @Test func refusalsNameTheField() {
        let t = Self.token
        let cases: [(body: String, key: String, reason: String)] = [
            ("{}", "regster", #"routing_key: unknown command "regster" (did you mean "register"?)"#),
            (
                "{}", "chat.message",
                #"routing_key: unknown command "chat.message" (expected register, unregister, unregister_device or replace_token)"#
            ),
            ("not json", "register", "body: invalid literal at byte 0 (line 1, column 1): expected null"),
            ("[1]", "register", "command: expected a JSON object, found an array"),
            (#"{"app": "chat", "chanels": []}"#, "register", #"chanels: unknown field (did you mean "channels"?)"#),
            (
                #"{"app": "chat", "new_token": "x"}"#, "register",
                "new_token: is not a field of register (only replace_token takes it)"
            ),
            (
                #"{"app": "chat", "channels": ["a"]}"#, "unregister_device",
                "channels: is not a field of unregister_device (only register and unregister take it)"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "condition": "'a' in topics", "channels": ["a"]}"#, "register",
                "condition: a condition is not a device; register a device token or FID"
            ),
            (#"{"id": "", "app": "chat"}"#, "register", #"id: expected a non-empty string, found """#),
            (
                #"{"provider": "fcm", "token": "t", "channels": ["a"]}"#, "register",
                "app: missing; give one of chat or shop"
            ),
            (#"{"app": 7}"#, "register", "app: expected a string, found 7"),
            (
                #"{"app": "chta", "provider": "fcm", "token": "t", "channels": ["a"]}"#, "register",
                #"app: unknown app "chta" (did you mean "chat"?; apps: chat, shop)"#
            ),
            (
                #"{"app": "chat", "token": "t", "channels": ["a"]}"#, "register",
                "provider: missing; expected apns, fcm, webpush, ios or android"
            ),
            (
                #"{"app": "chat", "provider": "apn", "token": "t", "channels": ["a"]}"#, "register",
                #"provider: unknown provider "apn" (expected apns, fcm, webpush, ios or android; did you mean "apns"?)"#
            ),
            (
                #"{"app": "shop", "provider": "apns", "token": "\#(t)", "channels": ["a"]}"#, "register",
                #"provider: app "shop" has no apns credentials (it has fcm)"#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "channels": ["a"]}"#, "register",
                #"command: has neither "token" nor "fid"; give the device's token (or FID on FCM)"#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "fid": "f", "channels": ["a"]}"#, "register",
                #"command: has both "token" and "fid"; give exactly one"#
            ),
            (
                #"{"app": "chat", "provider": "apns", "token": "not-hex", "channels": ["a"]}"#, "register",
                #"token: an APNs device token is hexadecimal, found "not-hex""#
            ),
            (
                #"{"app": "chat", "provider": "apns", "fid": "abc", "channels": ["a"]}"#, "register",
                #"fid: APNs has no FIDs; an APNs device is a "token""#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "fid": "c+x/y", "channels": ["a"]}"#, "register",
                #"fid: a FID is URL-safe base64 (letters, digits, '-', '_'), found "c+x/y""#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t"}"#, "register",
                "channels: missing; give at least one channel"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": []}"#, "unregister",
                "channels: is empty; give at least one channel"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": "user:1"}"#, "register",
                #"channels: expected an array of strings, found "user:1""#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a", 5]}"#, "register",
                "channels[1]: expected a string, found 5"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a", "b\u0007"]}"#, "register",
                "channels[1]: channel has a control character (U+0007) at byte 1; control characters are not allowed"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["\#(String(repeating: "x", count: 256))"]}"#,
                "register",
                #"channels[0]: channel "\#(String(repeating: "x", count: 57))..." is 256 bytes, over the limit of 255"#
            ),
            (
                #"{"app": "chat", "provider": "apns", "token": "\#(t)", "channels": ["a"], "environment": "staging"}"#,
                "register",
                #"environment: unknown APNs environment "staging" (expected production or sandbox)"#
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a"], "environment": "sandbox"}"#,
                "register",
                "environment: environment and topic override APNs settings; an fcm device has neither"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a"], "topic": "news"}"#, "register",
                "topic: is the APNs topic (bundle ID) a device registers with; an FCM topic is not a device, register a device token or FID"
            ),
            (
                #"{"app": "chat", "provider": "fcm", "token": "t"}"#, "replace_token",
                "new_token: missing; give the device's new token"
            ),
            (
                #"{"app": "chat", "provider": "apns", "token": "\#(t)", "new_token": "zz"}"#, "replace_token",
                #"new_token: an APNs device token is hexadecimal, found "zz""#
            ),
            (
                #"{"id": "\#(String(repeating: "i", count: 256))", "app": "chat"}"#, "register",
                "id: is 256 bytes, over the limit of 255 (it is the AMQP message-id of the result)"
            ),
        ]
        for (body, key, reason) in cases {
            #expect(refusal(body, key) == reason, "\(key) \(body)")
        }
        let small = RegistryCommand.Rules(
            apps: ["chat": [.fcm]], providers: .registered,
            limits: RegistryLimits(maxChannelsPerDevice: 2, maxDevicesPerChannel: 10))
        #expect(
            refusal(
                #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a", "b", "a", "c"]}"#, rules: small)
                == "channels: 3 channels given; a device may be on at most 2 (RegistryLimits.maxChannelsPerDevice)")
        #expect(
            refusal(String(repeating: " ", count: RegistryCommand.maxBytes + 1))
                == "body: command is 1048577 bytes, over the limit of 1048576")
    }

    /// An app with registry publishers takes commands from those AMQP users
    /// only (by the broker-verified `user-id`), and a command without one is
    /// refused like a wrong user's; the operator's CLI is not an AMQP sender.
    @Test func anAppWithPublishersTakesCommandsFromThemOnly() throws {
        var rules = Self.rules
        rules.publishers = ["chat": ["accounts-svc"]]
        let body = Array(#"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a"]}"#.utf8)
        func refusal(_ sender: RegistryCommand.Sender) -> String? {
            do {
                _ = try RegistryCommand.decode(
                    body, routingKey: "register", fallbackID: nil, rules: rules, sender: sender)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal(.amqp(userID: "mallory")) == #"user-id: "mallory" is not a registry publisher of app "chat""#)
        #expect(
            refusal(.amqp(userID: nil))
                == #"user-id: missing: app "chat" takes registry commands only from its registry publishers, and the message has no AMQP user-id property"#
        )
        #expect(refusal(.amqp(userID: "accounts-svc")) == nil)
        #expect(refusal(.operator) == nil)
        // An app without a list takes any sender's.
        #expect(throws: Never.self) {
            _ = try RegistryCommand.decode(
                Array(#"{"app": "shop", "provider": "fcm", "token": "t", "channels": ["a"]}"#.utf8),
                routingKey: "register", fallbackID: nil, rules: rules, sender: .amqp(userID: nil))
        }
    }

    /// A registration's `topic` is one of the app's: a team's key would sign for any bundle ID of the team.
    @Test func aTopicOutsideTheAppsAllowedTopicsIsRefused() throws {
        var rules = Self.rules
        rules.topics = ["chat": APNsTopic.allowed(bundleIDs: ["com.example.chat", "com.example.chat.beta"])]
        let device = #""app": "chat", "provider": "apns", "token": "\#(Self.token)", "channels": ["a"]"#
        #expect(
            refusal(#"{\#(device), "topic": "com.example.bank"}"#, rules: rules)
                == #"topic: "com.example.bank" is not one of the APNs topics app "chat" may use (its own topic and allowed topics, each with its push-type suffixes)"#
        )
        #expect(refusal(#"{\#(device), "topic": "com.example.chat.beta"}"#, rules: rules) == nil)
        #expect(refusal(#"{\#(device), "topic": "com.example.chat.voip"}"#, rules: rules) == nil)
    }

    /// Channel names follow one rule (`ChannelName`): no format characters, stored in NFC.
    @Test func channelNamesAreCheckedAndNormalised() throws {
        let device = #""app": "chat", "provider": "fcm", "token": "t""#
        #expect(
            refusal(#"{\#(device), "channels": ["user:42\u202e"]}"#)
                == "channels[0]: channel has a format character (U+202E) at byte 7; format characters (bidi controls, zero-width) are not allowed"
        )
        #expect(
            refusal(#"{\#(device), "channels": ["ok", "user:\u200b42"]}"#)
                == "channels[1]: channel has a format character (U+200B) at byte 5; format characters (bidi controls, zero-width) are not allowed"
        )
        // NFD and NFC spellings of one name are one channel, in NFC.
        let command = try decode(#"{\#(device), "channels": ["caf\u0065\u0301", "caf\u00e9"]}"#)
        guard case .register(let channels, _, _) = command.action else { Issue.record("expected a register"); return }
        #expect(channels.map { Array($0.utf8) } == [Array("caf\u{E9}".utf8)])
        #expect(try Self.rules.channel("caf\u{65}\u{301}", field: "channel").utf8.elementsEqual("caf\u{E9}".utf8))
    }

    @Test func anAPNsTokenOverTheLengthCapIsRefusedNamingTheLimit() {
        let long = String(repeating: "ab", count: 2048)
        #expect(
            refusal(#"{"app": "chat", "provider": "apns", "token": "\#(long)", "channels": ["a"]}"#)
                == "token: the device token is 4096 hex digits, over the limit of 400 for an APNs device token (200 bytes; today's tokens are 64)"
        )
        #expect(
            refusal(
                #"{"app": "chat", "provider": "apns", "token": "\#(Self.token)", "new_token": "\#(long)"}"#,
                "replace_token")
                == "new_token: the device token is 4096 hex digits, over the limit of 400 for an APNs device token (200 bytes; today's tokens are 64)"
        )
    }

    @Test(arguments: Backend.allCases) func applyingSaysWhatChanged(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store in
            let at = Timestamp(seconds: 1_764_700_000, nanoseconds: 123_000_000)
            func apply(_ body: String, _ key: String) async throws -> String {
                try await decode(body, key).apply(to: store, at: at).jsonValue.jsonString
            }
            let device = #""app":"chat","provider":"apns","token":"\#(Self.token)""#
            #expect(
                try await apply(#"{"id": "c1", \#(device), "channels": ["user:1", "room:1"]}"#, "register") == #"""
                    {"command":"register","command_id":"c1","result":"registered",\#(device),"channels":{"user:1":"created","room:1":"created"},"change":"created","at":"2025-12-02T18:26:40.123Z"}
                    """#)
            #expect(
                try await apply(
                    #"{\#(device), "channels": ["user:1", "room:2"], "environment": "sandbox"}"#, "register") == #"""
                        {"command":"register","result":"registered",\#(device),"channels":{"user:1":"updated","room:2":"created"},"change":"created","at":"2025-12-02T18:26:40.123Z"}
                        """#)
            #expect(
                try await apply(#"{\#(device), "channels": ["user:1"], "environment": "sandbox"}"#, "register")
                    .contains(#""change":"unchanged""#))
            #expect(
                try await apply(#"{\#(device), "channels": ["user:1", "nowhere"]}"#, "unregister") == #"""
                    {"command":"unregister","result":"unregistered",\#(device),"channels":["user:1","nowhere"],"change":"removed","removed":1,"at":"2025-12-02T18:26:40.123Z"}
                    """#)
            let newToken = String(repeating: "b2", count: 32)
            #expect(
                try await apply(#"{\#(device), "new_token": "\#(newToken)"}"#, "replace_token") == #"""
                    {"command":"replace_token","result":"replaced",\#(device),"new_token":"\#(newToken)","change":"updated","at":"2025-12-02T18:26:40.123Z"}
                    """#)
            let moved = DeviceKey(app: "chat", provider: .apns, address: .token(newToken))
            #expect(try await store.channels(of: moved) == ["room:1", "room:2"])
            #expect(
                try await apply(#"{\#(device)}"#, "unregister_device").contains(#""change":"not_found","removed":0"#))
            let result = try await decode(
                #"{"app":"chat","provider":"apns","token":"\#(newToken)"}"#, "unregister_device"
            ).apply(to: store, at: at)
            #expect(result.change == .removed(count: 2))
            #expect(result.routingKey == "unregistered.apns.chat")
        }
    }

    @Test func aStoreRefusalNamesTheFieldItConcerns() async throws {
        try await TestDatabase.withStore(
            .sqlite, limits: RegistryLimits(maxChannelsPerDevice: 2, maxDevicesPerChannel: 10)
        ) { store in
            let command = try decode(#"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["a", "b"]}"#)
            _ = try await command.apply(to: store, at: Timestamp(seconds: 0))
            let more = try decode(#"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["c"]}"#)
            let error = try #require(
                await registryError { () throws(RegistryError) in
                    try await more.apply(to: store, at: Timestamp(seconds: 0))
                })
            do {
                #expect(
                    more.refusal(error).description
                        == "channels: device chat/fcm token * is on 2 channels and would be on 3; a device may be on at most 2 (RegistryLimits.maxChannelsPerDevice)"
                )
            }
        }
    }

    @Test func aRejectedResultNamesWhatItCanRead() {
        let at = Timestamp(seconds: 1_764_700_000)
        let body = Array(
            #"{"id": "c9", "app": "chat", "provider": "android", "token": "t-1", "channels": ["a", 5], "new_token": 3}"#
                .utf8)
        let error = RegistryCommandError(field: "channels[1]", message: "expected a string, found 5")
        let result = RegistryResult.rejected(
            error, body: body, routingKey: "register", fallbackID: "m-1", providers: .registered, at: at)
        #expect(result.routingKey == "registry_rejected.fcm.chat")
        #expect(
            result.jsonValue.jsonString == #"""
                {"command":"register","command_id":"c9","result":"registry_rejected","app":"chat","provider":"fcm","token":"t-1","reason":"channels[1]: expected a string, found 5","at":"2025-12-02T18:26:40.000Z"}
                """#)
        let garbage = RegistryResult.rejected(
            RegistryCommandError(field: "body", message: "x"), body: Array("\u{1}".utf8),
            routingKey: "what.ever", fallbackID: nil, providers: .registered, at: at)
        #expect(garbage.routingKey == "registry_rejected.unknown.unknown")
        #expect(
            garbage.jsonValue.jsonString
                == #"{"command":"what.ever","result":"registry_rejected","reason":"body: x","at":"2025-12-02T18:26:40.000Z"}"#
        )
    }

    // MARK: schemas/examples agree with the decoder

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas/examples")

    static func files(_ folder: String, prefix: String = "") -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// The kind of an example is the start of its name: `replace_token-fid.json`.
    static func kind(of name: String) -> String {
        RegistryCommand.Kind.allCases.map(\.rawValue).sorted { $0.count > $1.count }.first { name.hasPrefix($0 + "-") }
            ?? name
    }

    @Test func everyKindHasExamples() {
        for kind in RegistryCommand.Kind.allCases {
            #expect(Self.files("registry-commands").contains { Self.kind(of: $0) == kind.rawValue }, "\(kind)")
        }
        #expect(!Self.files("invalid", prefix: "registry-command-").isEmpty)
    }

    @Test(arguments: files("registry-commands")) func validCommandExampleDecodes(_ name: String) throws {
        let body = Array(try Data(contentsOf: Self.examples.appendingPathComponent("registry-commands/" + name)))
        _ = try RegistryCommand.decode(body, routingKey: Self.kind(of: name), fallbackID: nil, rules: Self.rules)
    }

    /// `registry-command-<kind>-<what>.json` must be refused as a command of that kind.
    @Test(arguments: files("invalid", prefix: "registry-command-")) func invalidCommandExampleIsRefused(_ name: String)
        throws
    {
        let body = Array(try Data(contentsOf: Self.examples.appendingPathComponent("invalid/" + name)))
        let kind = Self.kind(of: String(name.dropFirst("registry-command-".count)))
        #expect(throws: RegistryCommandError.self, "\(name)") {
            try RegistryCommand.decode(body, routingKey: kind, fallbackID: nil, rules: Self.rules)
        }
    }
}
