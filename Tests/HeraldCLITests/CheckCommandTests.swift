import Foundation
import HeraldCLI
import HeraldTestSupport
import Testing

@Suite struct CheckCommandTests {

    /// Runs `herald <arguments>` in-process and returns its status and output.
    func herald(_ arguments: [String], environment: [String: String] = [:]) async -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(arguments, environment: environment, console: console)
        return (status, console)
    }

    @Test func repositoryConfigPasses() async throws {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let (status, console) = await herald(
            ["check", "--config", repositoryRoot + "/config.yaml"],
            environment: [
                "APNS_KEY_FILE": keys + "/apns-AuthKey.p8",
                "FCM_SERVICE_ACCOUNT_FILE": keys + "/fcm-service-account.json", "HERALD_CA_FILE": keys + "/ca.pem",
                "VAPID_KEY_FILE": keys + "/vapid.pem", "HERALD_AMQP_URL": "amqp://herald:s3cret@broker:5672/%2f",
            ])
        #expect(console.stderr == "")
        #expect(status == 0)
        let out = console.stdout
        #expect(out.hasPrefix(repositoryRoot + "/config.yaml: OK\n"))
        #expect(out.contains("  amqp: amqp://herald:***@broker:5672/%2F, queue herald.events (quorum), prefetch 1024"))
        #expect(
            out.contains(
                "  app chat: apns (token auth, team HERALDTEAM, key HERALDKEY1, topic com.example.chat, production, https://127.0.0.1:2197), fcm (project herald-dev, https://127.0.0.1:2197), webpush (VAPID subject mailto:push-team@example.com, default TTL 672h, allowed_hosts 127.0.0.1, unsafe_allow_internal_addresses (loopback and private addresses reachable))"
            ))
        #expect(out.contains("  routes: quiet-marketing, default"))
        #expect(out.contains("\n  registry: none (channel targets fail)\n  duplicate_window: 10m\n"), "\(out)")
        #expect(!out.contains("s3cret"))
        // The demo's publishers share Herald's user, so it lists none, and check says what that means.
        #expect(
            out.contains(
                "apps.chat: warning: app 'chat' has no publishers list: any AMQP user that can write to the events or "
                    + "registry exchange can send for it; list who may (publishers: {events: [orders-svc], registry: [accounts-svc]}, "
                    + "docs/security.md)"), "\(out)")
    }

    /// The summary names the registry (a URL's password masked) and the duplicate window.
    @Test func summaryShowsTheRegistryAndTheDuplicateWindow() async throws {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let repository = try String(contentsOfFile: repositoryRoot + "/config.yaml", encoding: .utf8)
        let dir = try configDirectory(
            repository + """

                registry:
                  backend: postgres
                  url: postgres://herald:pg-s3cret@db.example.com/herald?sslmode=verify-full
                duplicate_window: 0s
                """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, console) = await herald(
            ["check", "--config", dir + "/config.yaml"],
            environment: [
                "APNS_KEY_FILE": keys + "/apns-AuthKey.p8",
                "FCM_SERVICE_ACCOUNT_FILE": keys + "/fcm-service-account.json", "HERALD_CA_FILE": keys + "/ca.pem",
                "VAPID_KEY_FILE": keys + "/vapid.pem",
            ])
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout.contains(
                "\n  registry: postgres postgres://herald:***@db.example.com/herald?sslmode=verify-full\n  duplicate_window: off\n"
            ), "\(console.stdout)")
        #expect(!console.stdout.contains("pg-s3cret"))
    }

    /// A fresh directory holding `yaml` as config.yaml; the caller removes it.
    func configDirectory(_ yaml: String) throws -> String {
        let dir = NSTemporaryDirectory() + "herald-check-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try yaml.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    /// `herald check` of `yaml`, which must fail: exit 1, nothing on stdout.
    /// Returns stderr with the config's directory written as DIR.
    func failedCheck(_ yaml: String) async throws -> String {
        let dir = try configDirectory(yaml)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, console) = await herald(["check", "--config", dir + "/config.yaml"])
        #expect(status == 1)
        #expect(console.stdout == "")
        return console.stderr.replacingOccurrences(of: dir, with: "DIR")
    }

    @Test func typoedKeyPrintsPositionAndDidYouMeanAndExitsOne() async throws {
        #expect(
            try await failedCheck("amqp:\n  prefech: 10\napps:\n  chat:\n    fcm:\n      service_account_json: '{}'\n")
                == """
                DIR/config.yaml:2:3: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)
                DIR/config.yaml:6:7: apps.chat.fcm: no project_id, and the service account does not name one
                DIR/config.yaml:6:29: apps.chat.fcm.service_account_json: the service account has no 'client_email'
                DIR/config.yaml:6:29: apps.chat.fcm.service_account_json: the service account has no 'private_key'
                DIR/config.yaml:6:29: apps.chat.fcm.service_account_json: the service account has no 'private_key_id'
                DIR/config.yaml: 5 errors
                """)
    }

    @Test(arguments: [("1e300", "1e+300"), ("1e-300", "1e-300")])
    func aRateOutsideItsBoundsIsRefusedNamingTheKeyAndTheRange(rate: String, shown: String) async throws {
        let stderr = try await failedCheck(
            """
            apps:
              chat:
                fcm:
                  project_id: herald-dev
                  service_account_file: sa.json
                  max_per_minute: \(rate)
            routes:
              - name: r
                rate: {per_second: \(rate)}
            """)
        #expect(
            stderr.contains(
                "routes[0].rate.per_second: expected a rate from 0.000001 to 1000000000 per second, found \(shown)"),
            "\(stderr)")
        #expect(
            stderr.contains(
                "apps.chat.fcm.max_per_minute: expected a rate from 0.00006 to 60000000000 per minute, found \(shown)"),
            "\(stderr)")
    }

    @Test func everyProblemIsPrintedInOneRunSortedByPosition() async throws {
        #expect(
            try await failedCheck(
                """
                amqp:
                  prefech: 10
                apps:
                  chat:
                    fcm:
                      project_id: herald-dev
                      service_account_file: keys/missing.json
                retry:
                  max_attempts: five
                """) == """
                    DIR/config.yaml:2:3: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)
                    DIR/config.yaml:7:29: apps.chat.fcm.service_account_file: service account file 'DIR/keys/missing.json' does not exist
                    DIR/config.yaml:9:17: retry.max_attempts: expected an integer, found 'five'
                    DIR/config.yaml: 3 errors
                    """)
    }

    @Test func onlineProvesTheFCMProjectAndNamesAMisspeltOne() async throws {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        try await withSimulator(keys: keys) { port in
            // The dev key's token_uri names the simulator's usual port; this one listens elsewhere.
            let account = try String(contentsOfFile: keys + "/fcm-service-account.json", encoding: .utf8)
                .replacingOccurrences(of: "https://127.0.0.1:2197/token", with: "https://127.0.0.1:\(port)/token")
            try account.write(toFile: keys + "/fcm-service-account.json", atomically: true, encoding: .utf8)
            for (project, expectedStatus) in [("herald-dve", Int32(1)), ("herald-dev", 0)] {
                let dir = try configDirectory(
                    """
                    apps:
                      chat:
                        fcm:
                          project_id: \(project)
                          service_account_file: \(keys)/fcm-service-account.json
                          endpoint: https://127.0.0.1:\(port)
                          ca_file: \(keys)/ca.pem
                    """)
                defer { try? FileManager.default.removeItem(atPath: dir) }
                let (status, console) = await herald(["check", "--config", dir + "/config.yaml", "--online"])
                #expect(status == expectedStatus, "\(console.stdout)\(console.stderr)")
                let online = console.stdout.split(separator: "\n").filter { $0.hasPrefix("  online: ") }
                #expect(
                    online.first?.hasPrefix("  online: chat/fcm: ok: OAuth access token obtained (valid until ") == true
                )
                #expect(
                    online.dropFirst().map(String.init) == [
                        project == "herald-dev"
                            ? "  online: chat/fcm: ok: project herald-dev accepts messages (validate_only)"
                            : "  online: chat/fcm: FAILED: project 'herald-dve' refused messages from herald-dev@herald-dev.iam.gserviceaccount.com: "
                                + "check fcm.project_id, and that this service account may send to the project (PERMISSION_DENIED: "
                                + "Permission 'cloudmessaging.messages.create' denied on resource "
                                + "'//cloudresourcemanager.googleapis.com/projects/herald-dve' (or it may not exist).)"
                    ])
            }
        }
    }

    @Test func onlineProbesAreRecordedAsProbesNotNotifications() async throws {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let apnsKey = ["--apns-key", keys + "/apns-AuthKey.p8", "--key-id", "HERALDKEY1", "--team-id", "HERALDTEAM"]
        try await withSimulator(keys: keys, extraArguments: apnsKey) { port in
            let account = try String(contentsOfFile: keys + "/fcm-service-account.json", encoding: .utf8)
                .replacingOccurrences(of: "https://127.0.0.1:2197/token", with: "https://127.0.0.1:\(port)/token")
            try account.write(toFile: keys + "/fcm-service-account.json", atomically: true, encoding: .utf8)
            let dir = try configDirectory(
                """
                apps:
                  chat:
                    apns:
                      team_id: HERALDTEAM
                      key_id: HERALDKEY1
                      key_file: \(keys)/apns-AuthKey.p8
                      topic: com.example.chat
                      endpoint: https://127.0.0.1:\(port)
                      ca_file: \(keys)/ca.pem
                    fcm:
                      service_account_file: \(keys)/fcm-service-account.json
                      endpoint: https://127.0.0.1:\(port)
                      ca_file: \(keys)/ca.pem
                """)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let (status, console) = await herald(["check", "--config", dir + "/config.yaml", "--online"])
            #expect(status == 0, "\(console.stdout)\(console.stderr)")
            #expect(
                console.stdout.contains(
                    "  online: chat/apns: ok: credentials accepted (a probe to an all-zero device token was answered 400 BadDeviceToken)\n"
                ))

            /// The admin API's answer to GET `path`, with curl.
            func admin(_ path: String) async throws -> String {
                try await runTool(
                    "/usr/bin/curl",
                    ["-sS", "--http2", "--cacert", keys + "/ca.pem", "https://127.0.0.1:\(port)" + path]
                ).output
            }
            #expect(try await admin("/_herald/delivered") == #"{"delivered":[]}"#, "a probe is not a notification")
            #expect(try await admin("/_herald/refused") == #"{"refused":[]}"#)
            let zero = String(repeating: "0", count: 64)
            let refusedProbe = try await admin("/_herald/refused?probes=only")
            #expect(
                refusedProbe.hasPrefix(
                    #"{"refused":[{"provider":"apns","method":"POST","path":"/3/device/\#(zero)","target":"\#(zero)","status":400,"reason":"BadDeviceToken","#
                ), "\(refusedProbe)")
            #expect(refusedProbe.hasSuffix(#""answer":{"reason":"BadDeviceToken"},"probe":true}]}"#), "\(refusedProbe)")
            let acceptedProbe = try await admin("/_herald/delivered?probes=only")
            #expect(
                acceptedProbe.hasPrefix(
                    #"{"delivered":[{"provider":"fcm","target":"herald-check","message_id":"projects/herald-dev/messages/fake_message_id","#
                ), "\(acceptedProbe)")
            #expect(
                acceptedProbe.hasSuffix(
                    #""payload":{"topic":"herald-check","notification":{"body":"herald check --online"}},"probe":true}]}"#
                ), "\(acceptedProbe)")
        }
    }

    @Test func checkDefaultsToHeraldConfigVariable() async {
        let (status, console) = await herald(["check"], environment: ["HERALD_CONFIG": "/nonexistent/h.yaml"])
        #expect(status == 1)
        #expect(console.stderr.contains("/nonexistent/h.yaml"))
    }

    @Test func unknownOptionIsAUsageError() async {
        let (status, console) = await herald(["check", "--confg", "x.yaml"])
        #expect(status == 64)
        #expect(console.stderr.hasPrefix("herald check: unknown option '--confg' (did you mean '--config'?)"))
        #expect(console.stderr.hasSuffix("\nRun 'herald check --help' for usage."))
    }

    @Test func optionWithoutValueIsAUsageError() async {
        let (status, console) = await herald(["check", "--config"])
        #expect(status == 64)
        #expect(console.stderr.hasPrefix("herald check: option --config needs a value"))
    }

    @Test func everyCommandHasHelp() async {
        for command in HeraldCommandLine.standardCommands {
            let (status, console) = await herald([command.name, "--help"])
            #expect(status == 0)
            #expect(console.stdout.hasPrefix("Usage: herald \(command.name)"))
            let (helpStatus, viaHelp) = await herald(["help", command.name])
            #expect(helpStatus == 0)
            #expect(viaHelp.stdout == console.stdout)
        }
    }

    @Test func overviewListsCommands() async {
        let (status, console) = await herald(["--help"])
        #expect(status == 0)
        // Summaries line up two spaces after the longest command name ("completion").
        #expect(console.stdout.contains("  check       Validate a config file and the key files it names"))
        #expect(console.stdout.contains("  completion  Print a bash or zsh completion script"))
        #expect(console.stdout.contains("  version     Print Herald's version and its libraries' versions"))
    }

    @Test func unknownCommandSuggests() async {
        let (status, console) = await herald(["chek"])
        #expect(status == 64)
        #expect(console.stderr.hasPrefix("herald: unknown command 'chek' (did you mean 'check'?)"))
    }

    @Test func noCommandPrintsOverviewAndFails() async {
        let (status, console) = await herald([])
        #expect(status == 64)
        #expect(console.stderr.contains("Usage: herald <command> [options]"))
    }

    @Test func versionNamesTheReleaseAndTheLibraries() async throws {
        let (status, console) = await herald(["version"])
        #expect(status == 0)
        let lines = console.stdout.split(separator: "\n").map(String.init)
        let released = try String(contentsOfFile: repositoryRoot + "/VERSION", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(lines.first == "herald \(released)", "herald version prints the VERSION file's release")
        for library in ["libcurl 7.", "tls OpenSSL/3.", "nghttp2 1.", "rabbitmq-c 0.11", "libyaml 0.2", "jemalloc 5."] {
            #expect(lines.contains { $0.hasPrefix("  " + library) }, "no line for \(library) in \(lines)")
        }
    }
}
