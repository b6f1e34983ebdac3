import Foundation
import HeraldCLI
import HeraldCore
import HeraldCrypto
import HeraldSimulator
import HeraldTestSupport
import Testing

/// `herald send` against the simulator, and `herald simulate`'s options.
@Suite struct CommandTests {
    func writeConfig(port: Int, caFile: String) throws -> String {
        let directory = try makeTemporaryDirectory("sim")
        try """
        apps:
          chat:
            apns:
              team_id: HERALDTEAM
              key_id: HERALDKEY1
              key_file: AuthKey.p8
              topic: com.example.chat
              endpoint: https://localhost:\(port)
              ca_file: \(caFile)
        """.write(toFile: directory + "/config.yaml", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func sendDeliversOneNotificationAndPrintsTheOutcome() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        let configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], deadTokens: [dead: Timestamp(seconds: 1_796_032_800)])
        try await withSimulator(configuration) { sim in
            let directory = try writeConfig(port: sim.server.port, caFile: sim.pki.caCertificatePath)
            try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            let base = ["send", "--config", directory + "/config.yaml", "--app", "chat", "--provider", "apns"]

            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                base + [
                    "--token", Fixtures.token, "--title", "Hi", "--body", "Hello", "--badge", "0", "--data",
                    #"{"k":1}"#,
                ],
                environment: [:], console: console)
            #expect(console.stderr == "")
            #expect(status == 0)
            let outcome = try JSONValue.parse(console.stdout)
            #expect(outcome["status"] == "delivered")
            #expect(outcome["provider_status"] == 200)
            #expect(outcome["token"]?.stringValue == Fixtures.token)
            #expect(outcome["provider_message_id"]?.stringValue == sim.recorder.notifications.first?.messageID)
            #expect(
                sim.recorder.notifications.first?.payload.jsonString
                    == #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"badge":0},"k":1}"#)

            let deadConsole = CapturedConsole()
            let deadStatus = await HeraldCommandLine().run(
                base + ["--token", dead, "--body", "x"], environment: [:], console: deadConsole)
            #expect(deadStatus == 1)
            let deadOutcome = try JSONValue.parse(deadConsole.stdout)
            #expect(deadOutcome["status"] == "invalid_token")
            #expect(deadOutcome["reason"] == "Unregistered")
            #expect(deadOutcome["invalidated_at"] == "2026-11-30T10:00:00Z")
        }
    }

    /// A notification with nothing for the device (no text, sound, badge,
    /// data or wake-up) is refused before anything is sent, unless --silent
    /// says it is meant; an app the config lacks is named with the closest one.
    @Test func sendRefusesAnEmptyNotificationUnlessSilentAndSuggestsTheApp() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let directory = try writeConfig(port: sim.server.port, caFile: sim.pki.caCertificatePath)
            try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            let base = [
                "send", "--config", directory + "/config.yaml", "--provider", "apns", "--token", Fixtures.token,
            ]

            let empty = CapturedConsole()
            #expect(await HeraldCommandLine().run(base + ["--app", "chat"], environment: [:], console: empty) == 64)
            let lines = empty.stderr.split(separator: "\n")
            #expect(lines.count == 2, "\(empty.stderr)")
            #expect(lines.first?.hasPrefix("herald send: the notification has no content") == true)
            #expect(lines.first?.contains("--silent") == true)
            #expect(lines.last == "Run 'herald send --help' for usage.")
            #expect(empty.stdout == "")

            let unknown = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    base + ["--app", "chta", "--title", "Hi"], environment: [:], console: unknown) == 64)
            #expect(
                unknown.stderr.hasPrefix(
                    "herald send: --app: \(directory)/config.yaml has no app 'chta' (did you mean 'chat'?)"),
                "\(unknown.stderr)")
            #expect(sim.recorder.notifications.isEmpty, "nothing was sent for the refused command lines")

            let silent = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(base + ["--app", "chat", "--silent"], environment: [:], console: silent)
                    == 0, "\(silent.stderr)")
            #expect(try JSONValue.parse(silent.stdout)["status"] == "delivered")
            #expect(sim.recorder.notifications.count == 1)
        }
    }

    /// `herald send` uses no broker: an `amqp.url` no broker could be reached at does not stop it.
    @Test func sendNeedsNoBrokerURL() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let directory = try writeConfig(port: sim.server.port, caFile: sim.pki.caCertificatePath)
            try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            let config = try String(contentsOfFile: directory + "/config.yaml", encoding: .utf8)
            try (config + "\namqp:\n  url: not-a-broker-url\n").write(
                toFile: directory + "/config.yaml", atomically: true, encoding: .utf8)
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                [
                    "send", "--config", directory + "/config.yaml", "--app", "chat", "--provider", "apns", "--token",
                    Fixtures.token, "--body", "x",
                ], environment: [:], console: console)
            #expect(console.stderr == "")
            #expect(status == 0)
            #expect(try JSONValue.parse(console.stdout)["status"] == "delivered")
            // herald check still refuses it: herald run needs the broker.
            let check = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    ["check", "--config", directory + "/config.yaml"], environment: [:], console: check) == 1)
            #expect(check.stderr.contains("not-a-broker-url"), "\(check.stderr)")
        }
    }

    /// `--event FILE` sends every device target of the event, one outcome line each.
    @Test func sendEventFileSendsEveryTargetOfTheEvent() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        let configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], deadTokens: [dead: Timestamp(seconds: 1_796_032_800)])
        try await withSimulator(configuration) { sim in
            let directory = try writeConfig(port: sim.server.port, caFile: sim.pki.caCertificatePath)
            try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            let config = directory + "/config.yaml"
            let good = directory + "/good.json"
            try #"""
            {"id": "e-1", "app": "chat", "notification": {"title": "Hi"},
             "targets": [{"provider": "apns", "token": "\#(Fixtures.token)"}, {"provider": "ios", "token": "\#(Fixtures.token)"}]}
            """#.write(toFile: good, atomically: true, encoding: .utf8)
            let console = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    ["send", "--config", config, "--event", good], environment: [:], console: console) == 0,
                "\(console.stderr)")
            let lines = console.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(console.stdout)")
            for line in lines {
                let outcome = try JSONValue.parse(line)
                #expect(outcome["status"] == "delivered")
                #expect(outcome["event_id"] == "e-1")
                #expect(outcome["app"] == "chat")
            }
            #expect(sim.recorder.notifications.count == 2)

            // A dead token and a token that can never work: every target still gets its outcome, exit 1.
            let mixed = directory + "/mixed.json"
            try #"""
            {"id": "e-2", "notification": {"body": "x"},
             "targets": [{"provider": "apns", "token": "\#(dead)"}, {"provider": "apns", "token": "not-hex"}, {"provider": "apns", "token": "\#(Fixtures.token)"}]}
            """#.write(toFile: mixed, atomically: true, encoding: .utf8)
            let second = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    ["send", "--config", config, "--event", mixed, "--app", "chat"], environment: [:], console: second)
                    == 1)
            let statuses = try second.stdout.split(separator: "\n").map {
                try JSONValue.parse(String($0))["status"]?.stringValue ?? ""
            }
            #expect(statuses.sorted() == ["delivered", "invalid_token", "invalid_token"], "\(second.stdout)")

            // --event gives the targets: a device option alongside is refused before anything is sent.
            let both = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    ["send", "--config", config, "--event", good, "--token", Fixtures.token], environment: [:],
                    console: both) == 64)
            #expect(both.stderr.contains("--event cannot be combined with --token"), "\(both.stderr)")
            #expect(sim.recorder.notifications.count == 3)
        }
    }

    @Test func sendDeliversThroughFCMAfterTheOAuthExchange() async throws {
        let key = try PrivateKey.generateRSA()
        let directory = try makeTemporaryDirectory("sim")
        let accountFile = directory + "/service-account.json"
        let recorder = NotificationRecorder()
        // The simulator reads the same key file a user would give it with --fcm-service-account.
        func writeAccount(tokenURI: String) throws {
            let account: JSONValue = [
                "type": "service_account", "project_id": "demo", "private_key_id": "key-1",
                "private_key": .string(try key.pkcs8PEM()), "client_email": "svc@demo.iam.gserviceaccount.com",
                "token_uri": .string(tokenURI),
            ]
            try account.jsonString.write(toFile: accountFile, atomically: true, encoding: .utf8)
        }
        try writeAccount(tokenURI: "https://localhost/token")
        let fcm = try #require(
            try SimulatorSettings.FCM(serviceAccounts: [accountFile], deadTokens: ["gone"])
                .fcmServices(recorder: recorder))
        try await withSimulator(
            APNsSimulatorConfiguration(keys: []), recorder: recorder, extraServices: [fcm.oauth, fcm.fcm]
        ) { sim in
            try writeAccount(tokenURI: "https://localhost:\(sim.server.port)/token")
            try """
            apps:
              chat:
                fcm:
                  service_account_file: service-account.json
                  endpoint: https://localhost:\(sim.server.port)
                  ca_file: \(sim.pki.caCertificatePath)
            """.write(toFile: directory + "/config.yaml", atomically: true, encoding: .utf8)
            let base = ["send", "--config", directory + "/config.yaml", "--app", "chat", "--provider", "fcm"]

            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                base + ["--token", "registration-1", "--title", "Hi", "--data", #"{"n":3}"#], environment: [:],
                console: console)
            #expect(console.stderr == "")
            #expect(status == 0)
            let outcome = try JSONValue.parse(console.stdout)
            #expect(outcome["status"] == "delivered")
            #expect(outcome["provider_message_id"]?.stringValue?.hasPrefix("projects/demo/messages/") == true)
            #expect(fcm.oauth.tokens.issuedCount == 1)
            let message = try #require(recorder.notifications.first { $0.provider == "fcm" })
            #expect(message.payload["data"] == ["n": "3"])  // FCM data values are strings

            let deadConsole = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    base + ["--token", "gone", "--body", "x"], environment: [:], console: deadConsole) == 1)
            let dead = try JSONValue.parse(deadConsole.stdout)
            #expect(dead["status"] == "invalid_token")
            #expect(dead["reason"] == "UNREGISTERED")
            #expect(dead["provider_status"] == 404)

            // --fid addresses the device by its Firebase installation ID: sent as message.fid, echoed as "fid".
            let fid = "cR1Zm2QmSSmvP3bqAbcDef"
            let fidConsole = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    base + ["--fid", fid, "--title", "Hi"], environment: [:], console: fidConsole) == 0)
            #expect(fidConsole.stderr == "")
            let byFID = try JSONValue.parse(fidConsole.stdout)
            #expect(byFID["status"] == "delivered")
            #expect(byFID["fid"]?.stringValue == fid)
            #expect(byFID["token"] == nil)
            let sent = try #require(recorder.notifications.last { $0.provider == "fcm" })
            #expect(sent.target == fid)
            #expect(sent.payload["fid"]?.stringValue == fid)
            #expect(sent.payload["token"] == nil)

            // --topic and --condition address FCM's topic and condition targets.
            for (option, value) in [("topic", "news"), ("condition", "'news' in topics && 'eu' in topics")] {
                let console = CapturedConsole()
                #expect(
                    await HeraldCommandLine().run(
                        base + ["--\(option)", value, "--title", "Hi"], environment: [:], console: console) == 0,
                    "\(console.stdout) \(console.stderr)")
                let outcome = try JSONValue.parse(console.stdout)
                #expect(outcome["status"] == "delivered")
                #expect(outcome[option]?.stringValue == value)
                let message = try #require(recorder.notifications.last { $0.provider == "fcm" })
                #expect(message.payload[option]?.stringValue == value)
            }
        }
    }

    /// `--token`, `--fid`, `--topic`, `--condition` or `--subscription`: exactly one device.
    @Test func sendTakesATokenOrAFIDButNotBoth() async {
        for (devices, message) in [
            ([String](), "herald send: --token, --fid, --topic, --condition or --subscription is required"),
            (
                ["--topic", "news", "--condition", "'a' in topics"],
                "herald send: --topic and --condition cannot be combined; give one device"
            ),
            (
                ["--token", "t", "--fid", "cR1Zm2QmSSmvP3bqAbcDef"],
                "herald send: --token and --fid cannot be combined; give one device"
            ),
            (
                ["--fid", "f", "--subscription", "s.json"],
                "herald send: --fid and --subscription cannot be combined; give one device"
            ),
        ] {
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                ["send", "--app", "chat", "--provider", "fcm"] + devices, environment: [:], console: console)
            #expect(status == 64)
            #expect(console.stderr.hasPrefix(message), "\(console.stderr)")
        }
    }

    /// A FID (or token) that can never work gets the outcome the broker path
    /// would publish, `invalid_token` / `BadDeviceToken`, and nothing is sent
    /// (no config is even read).
    @Test func sendReportsAMalformedFIDAsAnInvalidToken() async throws {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            [
                "send", "--config", "/nonexistent/config.yaml", "--app", "chat", "--provider", "fcm", "--fid",
                "not base64!",
            ],
            environment: [:], console: console)
        #expect(status == 1)
        #expect(console.stderr == "")
        let outcome = try JSONValue.parse(console.stdout)
        #expect(outcome["status"] == "invalid_token")
        #expect(outcome["provider"] == "fcm")
        #expect(outcome["fid"] == "not base64!")
        #expect(outcome["reason"] == "BadDeviceToken")
        #expect(
            outcome["detail"]?.stringValue
                == #"fid: expected a Firebase installation ID (URL-safe base64: letters, digits, '-', '_'), found "not base64!""#
        )
    }

    @Test func sendRefusesAnUnknownProviderWithASuggestion() async {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["send", "--app", "chat", "--provider", "apn", "--token", "ab"], environment: [:], console: console)
        #expect(status == 64)
        #expect(
            console.stderr.hasPrefix(
                "herald send: unknown provider 'apn'; expected apns, fcm or webpush (did you mean 'apns'?)"),
            "\(console.stderr)")
    }

    /// `--provider webpush --subscription FILE`: the message is encrypted for
    /// the subscription in the file and the simulator's push service decrypts it.
    @Test func sendDeliversWebPushToTheSubscriptionInTheFile() async throws {
        let recorder = NotificationRecorder()
        let webpush = WebPushSimulatorService(recorder: recorder)
        let vapid = try PrivateKey.generateP256()
        try await withSimulator(APNsSimulatorConfiguration(keys: []), recorder: recorder, extraServices: [webpush]) {
            sim in
            webpush.serve(at: "https://localhost:\(sim.server.port)")
            let subscription = try webpush.issueSubscription(applicationServerKey: vapid.publicKey.uncompressedP256())
            let directory = try makeTemporaryDirectory("sim")
            try vapid.pkcs8PEM().write(toFile: directory + "/vapid.pem", atomically: true, encoding: .utf8)
            try subscription.jsonValue().jsonString.write(
                toFile: directory + "/subscription.json", atomically: true, encoding: .utf8)
            try """
            apps:
              web:
                webpush:
                  vapid: {private_key_file: vapid.pem, subject: "mailto:push-team@example.com"}
                  ca_file: \(sim.pki.caCertificatePath)
                  allowed_hosts: [localhost]
                  unsafe_allow_internal_addresses: true
            """.write(toFile: directory + "/config.yaml", atomically: true, encoding: .utf8)
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                [
                    "send", "--config", directory + "/config.yaml", "--app", "web", "--provider", "webpush",
                    "--subscription", directory + "/subscription.json", "--title", "Hi", "--data", #"{"k":"v"}"#,
                ],
                environment: [:], console: console)
            #expect(console.stderr == "")
            #expect(status == 0)
            let outcome = try JSONValue.parse(console.stdout)
            #expect(outcome["status"] == "delivered")
            #expect(outcome["provider"] == "webpush")
            #expect(outcome["endpoint"]?.stringValue == subscription.subscription.endpoint)
            #expect(outcome["provider_status"] == 201)
            let recorded = try #require(sim.recorder.notifications.first { $0.provider == "webpush" })
            #expect(recorded.payload == ["notification": ["title": "Hi"], "data": ["k": "v"]])

            let missing = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    [
                        "send", "--config", directory + "/config.yaml", "--app", "web", "--provider", "webpush",
                        "--subscription", directory + "/none.json",
                    ],
                    environment: [:], console: missing) == 64)
            #expect(missing.stderr.hasPrefix("herald send: --subscription: the file "), "\(missing.stderr)")
        }
    }

    @Test func sendValidatesTheEventLikeTheBroker() async {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["send", "--app", "chat", "--provider", "apns", "--token", "ab", "--push-type", "alrt"], environment: [:],
            console: console)
        #expect(status == 64)
        #expect(
            console.stderr.hasPrefix(
                #"herald send: the notification is not valid: push_type: unknown push type "alrt" (did you mean "alert"?)"#
            ), "\(console.stderr)")
    }

    @Test func simulateHelpListsItsOptions() async {
        let console = CapturedConsole()
        #expect(await HeraldCommandLine().run(["simulate", "--help"], environment: [:], console: console) == 0)
        for option in [
            "--listen HOST:PORT", "--apns-key FILE", "--dead-token TOKEN", "--goaway-after N", "--max-streams N",
            "--client-ca FILE",
            "--fcm-service-account FILE", "--fcm-dead-token TOKEN",
        ] {
            #expect(console.stdout.contains(option), "\(option)")
        }
    }

    @Test func simulateRefusesZeroStreams() async {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["simulate", "--max-streams", "0"], environment: [:], console: console)
        #expect(status == 64)
        #expect(
            console.stderr.hasPrefix("herald simulate: --max-streams: expected a positive number, found '0'"),
            "\(console.stderr)")
    }

    @Test func simulateRefusesAnApnsKeyWithoutIds() async {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["simulate", "--apns-key", "k.p8"], environment: [:], console: console)
        #expect(status == 64)
        #expect(
            console.stderr.hasPrefix("herald simulate: --apns-key needs --key-id and --team-id"), "\(console.stderr)")
    }
}
