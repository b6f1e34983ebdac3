import Foundation
import HeraldCLI
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// `herald registry` against a real SQLite file and a real PostgreSQL schema:
/// what each subcommand prints (table and `--json`), what it stores, and
/// every refusal naming the option, with exit 1.
@Suite struct RegistryAdminCommandTests {
    static let token = String(repeating: "a1", count: 32)
    static let newToken = String(repeating: "b2", count: 32)
    static let at = Timestamp(seconds: 1_764_700_000)

    /// A config with apps chat (APNs and FCM) and shop (FCM) and, unless `registry` is nil, that registry.
    static func config(registry: String?) throws -> String {
        let dir = NSTemporaryDirectory() + "herald-registry-cli-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let account =
            #"'{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----\n", "private_key_id": "k", "token_uri": "https://127.0.0.1/token"}'"#
        try """
        apps:
          chat:
            apns:
              team_id: TEAMTEAM01
              key_id: KEYKEYKEY1
              key_pem: "-----BEGIN PRIVATE KEY-----\\nAA\\n-----END PRIVATE KEY-----\\n"
              topic: com.example.chat
            fcm: {project_id: p, service_account_json: \(account)}
          shop:
            fcm: {project_id: p, service_account_json: \(account)}
        \(registry ?? "")
        """.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        return dir + "/config.yaml"
    }

    static func config(for database: TestDatabase) throws -> String {
        try config(registry: database.configSection())
    }

    /// Runs `herald registry <arguments> --config <file>`: the exit status, stdout and stderr.
    static func herald(_ file: String, _ arguments: [String]) async -> (status: Int32, out: String, err: String) {
        let console = CapturedConsole()
        let line = HeraldCommandLine(commands: [RegistryAdminCommand(clock: { at })])
        let status = await line.run(["registry"] + arguments + ["--config", file], environment: [:], console: console)
        return (status, console.stdout, console.stderr)
    }

    /// A Web Push subscription's `auth` is listed masked, in the table and
    /// in `--json`; the CLI reads it with `registry.encryption_key_file`.
    @Test(arguments: Backend.allCases) func listDevicesMasksTheAuthSecret(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let keyBytes = (0..<32).map { UInt8($0 * 7 % 256) }
            let file = try Self.config(registry: database.configSection(["encryption_key_file: registry.key"]))
            let keyFile = (file as NSString).deletingLastPathComponent + "/registry.key"
            try Data(keyBytes).write(to: URL(fileURLWithPath: keyFile))
            let store = try database.makeStore(secretKey: try RegistrySecretKey(bytes: keyBytes))
            defer { store.close() }
            _ = try await store.migrate()
            let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
            let auth = "BTBZMqHH6r4Tts7J_aSIgg"
            let endpoint = "https://fcm.googleapis.com/fcm/send/abc"
            _ = try await store.register(
                DeviceKey(
                    app: "chat", provider: Provider(rawValue: "webpush"),
                    address: Target.Address(.init(field: "endpoint", isDevice: true), endpoint)),
                profile: DeviceProfile(subscriptionKeys: SubscriptionKeys(p256dh: p256dh, auth: auth)),
                channels: ["user:42"], environment: nil, topic: nil, at: Self.at)
            let table = await Self.herald(file, ["list-devices", "--app", "chat", "--channel", "user:42"])
            #expect(table.status == 0 && table.err.isEmpty, "\(table)")
            #expect(table.out.contains("p256dh=\(p256dh) auth=********"), "\(table.out)")
            let json = await Self.herald(file, ["list-devices", "--app", "chat", "--channel", "user:42", "--json"])
            #expect(
                json.out
                    == #"{"app":"chat","channel":"user:42","provider":"webpush","endpoint":"\#(endpoint)","keys":{"p256dh":"\#(p256dh)","auth":"********"},"created_at":"2025-12-02T18:26:40.000Z","updated_at":"2025-12-02T18:26:40.000Z"}"#
            )
            #expect(!(table.out + table.err + json.out + json.err).contains(auth))
        }
    }

    @Test(arguments: Backend.allCases) func changesAndListsAsTheStoreDoes(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let file = try Self.config(for: database)
            let device = ["--app", "chat", "--provider", "apns", "--token", Self.token]
            func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
                await Self.herald(file, arguments)
            }

            let unmigrated = await run(["count", "--app", "chat"])
            #expect(unmigrated.status == 1)
            #expect(unmigrated.err.hasPrefix("herald registry count: registry count: "), "\(unmigrated.err)")
            #expect(
                unmigrated.err.hasSuffix("(run 'herald registry migrate --config \(file)' first)"), "\(unmigrated.err)")
            #expect(
                await run(["migrate"]) == (
                    0,
                    "applied version 1\napplied version 2\napplied version 3\napplied version 4\napplied version 5\napplied version 6",
                    ""
                ))
            #expect(await run(["migrate"]) == (0, "up to date", ""))
            #expect(await run(["migrate", "--json"]) == (0, #"{"applied":[]}"#, ""))

            #expect(
                await run(
                    ["add"] + device + [
                        "--channel", "user:42", "--channel", "room:general", "--environment", "sandbox",
                    ]) == (
                        0,
                        """
                        CHANNEL       CHANGE
                        user:42       created
                        room:general  created
                        """, ""
                    ))
            #expect(
                await run(["add"] + device + ["--channel", "user:42", "--environment", "sandbox", "--json"]) == (
                    0,
                    #"""
                    {"command":"register","result":"registered","app":"chat","provider":"apns","token":"\#(Self.token)","channels":{"user:42":"unchanged"},"change":"unchanged","at":"2025-12-02T18:26:40.000Z"}
                    """#, ""
                ))
            #expect(
                await run([
                    "add", "--app", "chat", "--provider", "android", "--fid", "cAbC-1_x", "--channel", "user:42",
                ]).status == 0)
            #expect(await run(["list-channels"] + device) == (0, "CHANNEL\nroom:general\nuser:42", ""))
            #expect(
                await run(["list-channels"] + device + ["--json"]) == (
                    0, #"{"channel":"room:general"}"# + "\n" + #"{"channel":"user:42"}"#, ""
                ))

            let first = await run(["list-devices", "--app", "chat", "--channel", "user:42", "--limit", "1"])
            #expect(first.status == 0)
            #expect(
                first.out == """
                    PROVIDER  KIND   ADDRESS                                                           ENVIRONMENT  TOPIC  CREATED_AT                UPDATED_AT
                    apns      token  \(Self.token)  sandbox      -      2025-12-02T18:26:40.000Z  2025-12-02T18:26:40.000Z
                    """)
            let cursor = try #require(first.err.split(separator: " ").last.map(String.init))
            #expect(first.err == "more devices: --after \(cursor)")
            #expect(
                await run(["list-devices", "--app", "chat", "--channel", "user:42", "--after", cursor, "--json"]) == (
                    0,
                    #"""
                    {"app":"chat","channel":"user:42","provider":"fcm","fid":"cAbC-1_x","created_at":"2025-12-02T18:26:40.000Z","updated_at":"2025-12-02T18:26:40.000Z"}
                    """#, ""
                ))
            #expect(
                await run(["list-devices", "--app", "chat", "--channel", "user:42", "--provider", "fcm", "--json"]).out
                    .contains("cAbC-1_x"))
            #expect(
                await run(["count", "--app", "chat", "--channel", "user:42"]) == (
                    0, "APP   CHANNEL  DEVICES\nchat  user:42  2", ""
                ))
            #expect(await run(["count", "--app", "chat", "--json"]) == (0, #"{"app":"chat","registrations":3}"#, ""))

            #expect(
                await run(["replace"] + device + ["--new-token", Self.newToken]) == (
                    0, "CHANGE   NEW_TOKEN\nupdated  \(Self.newToken)", ""
                ))
            let moved = ["--app", "chat", "--provider", "apns", "--token", Self.newToken]
            #expect(await run(["list-channels"] + moved) == (0, "CHANNEL\nroom:general\nuser:42", ""))
            #expect(
                await run(["remove"] + moved + ["--channel", "user:42", "--channel", "nowhere", "--json"]) == (
                    0,
                    #"""
                    {"command":"unregister","result":"unregistered","app":"chat","provider":"apns","token":"\#(Self.newToken)","channels":["user:42","nowhere"],"change":"removed","removed":1,"at":"2025-12-02T18:26:40.000Z"}
                    """#, ""
                ))
            #expect(await run(["remove-device"] + moved) == (0, "CHANGE   REMOVED\nremoved  1", ""))
            #expect(await run(["remove-device"] + moved) == (0, "CHANGE     REMOVED\nnot_found  0", ""))

            // What the commands stored, read with a store of the test's own.
            let store = try database.makeStore()
            defer { store.close() }
            #expect(try await store.count(app: "chat", channel: nil) == 1)
            #expect(
                try await store.channels(of: DeviceKey(app: "chat", provider: .fcm, address: .fid("cAbC-1_x"))) == [
                    "user:42"
                ])
        }
    }

    /// The refusals of the AMQP commands, with the option in place of the field; exit 1.
    /// `add` with the device's attributes; `stale` lists the devices not
    /// registered for `--older-than`, longest unseen first.
    @Test(arguments: Backend.allCases) func addTakesAttributesAndStaleListsUnseenDevices(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database in
            let file = try Self.config(for: database)
            func run(_ arguments: [String]) async -> (status: Int32, out: String, err: String) {
                await Self.herald(file, arguments)
            }
            #expect(await run(["migrate"]).status == 0)
            let device = ["--app", "chat", "--provider", "apns", "--token", Self.token]
            #expect(
                await run(
                    ["add"] + device + [
                        "--channel", "user:42", "--timezone", "Europe/Paris", "--locale", "fr-FR", "--attribute",
                        "plan=pro", "--attribute", "formula=a=b",
                    ]
                ).status == 0)
            #expect(
                await run(["add"] + device + ["--channel", "user:42", "--timezone", "Mars/Olympus_Mons"]) == (
                    1, "",
                    #"herald registry add: --timezone: unknown time zone "Mars/Olympus_Mons" (not in the tz database at \#(TimeZoneDatabase.system.directory))"#
                ))
            #expect(
                await run(["add"] + device + ["--channel", "user:42", "--attribute", "plan tier=pro"]).err
                    == #"herald registry add: --attribute: attribute key "plan tier" is not 1 to 64 bytes of A-Z, a-z, 0-9, "_", "." and "-""#
            )
            let store = try database.makeStore()
            defer { store.close() }
            let old = Self.at + .seconds(-100 * 86_400)
            _ = try await store.register(
                DeviceKey(app: "shop", provider: .fcm, address: .token("fcm-old")),
                profile: DeviceProfile(timezone: "Asia/Tokyo", attributes: ["tier": "1"]), channels: ["c"],
                environment: nil, topic: nil, at: old)
            _ = try await store.register(
                DeviceKey(app: "chat", provider: .fcm, address: .token("fcm-older")), channels: ["c"],
                environment: nil, topic: nil, at: old + .seconds(-1))

            let stamp = old.rfc3339(fractionDigits: 3)
            let earlier = (old + .seconds(-1)).rfc3339(fractionDigits: 3)
            #expect(
                await run(["stale", "--older-than", "90d"]) == (
                    0,
                    """
                    APP   PROVIDER  KIND   ADDRESS    LAST_SEEN                 CREATED_AT
                    chat  fcm       token  fcm-older  \(earlier)  \(earlier)
                    shop  fcm       token  fcm-old    \(stamp)  \(stamp)
                    """, ""
                ))
            #expect(
                await run(["stale", "--older-than", "90d", "--app", "shop", "--json"]) == (
                    0,
                    #"{"app":"shop","provider":"fcm","token":"fcm-old","last_seen":"\#(stamp)","created_at":"\#(stamp)","timezone":"Asia/Tokyo","attributes":{"tier":"1"}}"#,
                    ""
                ))
            let limited = await run(["stale", "--older-than", "90d", "--limit", "1", "--json"])
            #expect(limited.out.contains("fcm-older") && !limited.out.contains("fcm-old\""))
            #expect(limited.err == "more stale devices: raise --limit (at most 9999)")
            #expect(
                await run(["stale", "--older-than", "101d"]).out
                    == "APP  PROVIDER  KIND  ADDRESS  LAST_SEEN  CREATED_AT")
            let added = try #require(
                try await store.device(DeviceKey(app: "chat", provider: .apns, address: .token(Self.token))))
            #expect(added.timezone == "Europe/Paris" && added.locale == "fr-FR")
            #expect(added.attributes == ["plan": "pro", "formula": "a=b"])
            #expect(
                await run(["list-devices", "--app", "chat", "--channel", "user:42", "--json"]).out.hasSuffix(
                    #""created_at":"2025-12-02T18:26:40.000Z","updated_at":"2025-12-02T18:26:40.000Z","timezone":"Europe/Paris","locale":"fr-FR","attributes":{"formula":"a=b","plan":"pro"}}"#
                ))
            #expect(await run(["stale", "--older-than", "1s", "--app", "chat", "--json"]).out.contains("fcm-older"))
            #expect(
                await run(["stale", "--older-than", "soon"]) == (
                    1, "", "herald registry stale: --older-than: expected a duration like 90d, 12h or 30m, found 'soon'"
                ))
            #expect(await run(["stale"]).err.hasPrefix("herald registry stale: --older-than: missing"))
        }
    }

    @Test func refusalsNameTheOption() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let file = try Self.config(for: database)
            #expect(await Self.herald(file, ["migrate"]).status == 0)
            let cases: [([String], String)] = [
                (
                    ["add", "--provider", "fcm", "--token", "t", "--channel", "a"],
                    "herald registry add: --app: missing; give one of chat or shop"
                ),
                (
                    ["add", "--app", "chta", "--provider", "fcm", "--token", "t", "--channel", "a"],
                    #"herald registry add: --app: unknown app "chta" (did you mean "chat"?; apps: chat, shop)"#
                ),
                (
                    ["add", "--app", "shop", "--provider", "apns", "--token", Self.token, "--channel", "a"],
                    #"herald registry add: --provider: app "shop" has no apns credentials (it has fcm)"#
                ),
                (
                    ["add", "--app", "chat", "--provider", "fcm", "--channel", "a"],
                    #"herald registry add: --token/--fid: has neither "token" nor "fid"; give the device's token (or FID on FCM)"#
                ),
                (
                    ["add", "--app", "chat", "--provider", "fcm", "--token", "t"],
                    "herald registry add: --channel: missing; give at least one channel"
                ),
                (
                    [
                        "add", "--app", "chat", "--provider", "fcm", "--token", "t", "--channel", "ok", "--channel",
                        "bad\u{7}",
                    ],
                    "herald registry add: --channel #2: channel has a control character (U+0007) at byte 3; control characters are not allowed"
                ),
                (
                    ["add", "--app", "chat", "--provider", "apns", "--token", "zz", "--channel", "a"],
                    #"herald registry add: --token: an APNs device token is hexadecimal, found "zz""#
                ),
                (
                    ["add", "--app", "chat", "--provider", "fcm", "--token", "t", "--channel", "a", "--topic", "news"],
                    "herald registry add: --topic: is the APNs topic (bundle ID) a device registers with; an FCM topic is not a device, register a device token or FID"
                ),
                (
                    ["replace", "--app", "chat", "--provider", "fcm", "--token", "t"],
                    "herald registry replace: --new-token: missing; give the device's new token"
                ),
                (
                    ["list-devices", "--app", "chat"],
                    "herald registry list-devices: --channel: missing; give the channel to list"
                ),
                (
                    ["list-devices", "--app", "chat", "--channel", "c", "--limit", "0"],
                    "herald registry list-devices: --limit: expected a whole number from 1 to 10000, found '0'"
                ),
                (
                    ["list-devices", "--app", "chat", "--channel", "c", "--after", "x"],
                    "herald registry list-devices: --after: 'x' is not a cursor; give the one a previous page printed"
                ),
                (
                    ["list-devices", "--app", "chat", "--channel", "c", "--provider", "hms"],
                    #"herald registry list-devices: --provider: unknown provider "hms" (expected apns, fcm, webpush, ios or android)"#
                ),
                (
                    ["count", "--app", "chat", "--channel", ""],
                    "herald registry count: --channel: channel is empty; a channel name has 1 to 255 bytes"
                ),
            ]
            for (arguments, message) in cases {
                let console = CapturedConsole()
                let status = await HeraldCommandLine().run(
                    ["registry"] + arguments + ["--config", file], environment: [:], console: console)
                #expect(status == 1, "\(arguments)")
                #expect(console.stderr == message, "\(arguments)")
                #expect(console.stdout == "")
            }
            let store = try database.makeStore()
            defer { store.close() }
            #expect(try await store.count(app: "chat", channel: nil) == 0, "nothing was written")
        }
    }

    @Test func aConfigWithoutARegistryOrABadCommandLineIsRefused() async throws {
        let file = try Self.config(registry: nil)
        #expect(
            await Self.herald(file, ["count", "--app", "chat"]) == (
                1, "",
                """
                herald registry count: \(file) has no registry: section; add one to use the device registry (docs/configuration.md, "registry")
                """
            ))
        let unknown = await Self.herald(file, ["lst-devices"])
        #expect(unknown.status == 64)
        #expect(
            unknown.err.hasPrefix("herald registry: unknown subcommand 'lst-devices' (did you mean 'list-devices'?)"))
        let option = await Self.herald(file, ["add", "--chanel", "a"])
        #expect(option.status == 64)
        #expect(option.err.hasPrefix("herald registry: unknown option '--chanel' (did you mean '--channel'?)"))
        let help = await Self.herald(file, ["--help"])
        #expect(help.status == 0 && help.out.hasPrefix("Usage: herald registry <subcommand>"))
        let overview = CapturedConsole()
        _ = await HeraldCommandLine().run(["--help"], environment: [:], console: overview)
        #expect(
            overview.stdout.contains(
                "  registry    Manage the device registry: migrate, add, remove, replace, list, count, stale"))
    }
}
