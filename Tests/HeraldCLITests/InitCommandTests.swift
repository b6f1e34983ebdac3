import Foundation
@testable import HeraldCLI
import HeraldCore
import HeraldSystem
import HeraldTestSupport
import Testing

/// `herald init` from the files a developer downloads to a config `herald
/// check` accepts: found, asked for, written or added, and refused with the
/// flag to give.
@Suite struct InitCommandTests {
    /// A folder holding a downloaded-looking `AuthKey_HERALDKEY1.p8` and service-account JSON from fresh dev keys.
    func downloads() async throws -> (folder: String, keys: String) {
        let keys = try await devKeys()
        let folder = NSTemporaryDirectory() + "herald-init-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder + "/Downloads", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: keys + "/apns-AuthKey.p8", toPath: folder + "/Downloads/AuthKey_HERALDKEY1.p8")
        try FileManager.default.copyItem(
            atPath: keys + "/fcm-service-account.json",
            toPath: folder + "/Downloads/herald-dev-firebase-adminsdk-x1y2z.json")
        // Another JSON that is not a service account is passed over.
        try #"{"type": "authorized_user"}"#.write(
            toFile: folder + "/Downloads/other.json", atomically: true, encoding: .utf8)
        return (folder, keys)
    }

    func herald(_ arguments: [String], home: String, answers: [String] = []) async -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        let queue = Locked(answers)
        let command = InitCommand(input: { queue.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        let status = await command.run(arguments, environment: ["HOME": home], console: console)
        return (status, console)
    }

    @Test func nonInteractiveWritesAConfigThatCheckAccepts() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let config = folder + "/herald/config.yaml"
        try FileManager.default.createDirectory(atPath: folder + "/herald", withIntermediateDirectories: true)
        let (status, console) = await herald(
            [
                "--config", config, "--non-interactive", "--team-id", "HERALDTEAM", "--bundle-id", "com.example.chat",
                "--offline",
            ],
            home: folder)
        #expect(status == 0, "\(console.stdout)\n\(console.stderr)")
        #expect(
            console.stdout.hasPrefix(
                "herald init: wrote \(config): apns production com.example.chat (key HERALDKEY1, team HERALDTEAM); fcm project herald-dev\n"
            ))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        for line in [
            "  chat:",
            "      team_id: ${CHAT_APNS_TEAM_ID:-HERALDTEAM}",
            "      key_id: ${CHAT_APNS_KEY_ID:-HERALDKEY1}",
            "      key_file: ${CHAT_APNS_KEY_FILE:-\(folder)/Downloads/AuthKey_HERALDKEY1.p8}",
            "      topic: ${CHAT_APNS_TOPIC:-com.example.chat}",
            "      environment: ${CHAT_APNS_ENVIRONMENT:-production}",
            "      project_id: ${CHAT_FCM_PROJECT_ID:-herald-dev}",
            "      service_account_file: ${CHAT_FCM_SERVICE_ACCOUNT_FILE:-\(folder)/Downloads/herald-dev-firebase-adminsdk-x1y2z.json}",
            "    app: chat",
            "    # webpush:",
            "    #   vapid:",
            "    #     private_key_file: ${CHAT_WEBPUSH_VAPID_KEY_FILE:-vapid.pem}",
        ] {
            #expect(text.contains(line + "\n"), "no line '\(line)' in\n\(text)")
        }
        let check = CapturedConsole()
        #expect(
            await HeraldCommandLine().run(["check", "--config", config], environment: [:], console: check) == 0,
            "\(check.stderr)")
        // The environment overrides a placeholder.
        let staging = CapturedConsole()
        _ = await HeraldCommandLine().run(
            ["check", "--config", config], environment: ["CHAT_APNS_ENVIRONMENT": "sandbox"], console: staging)
        #expect(staging.stdout.contains("com.example.chat, sandbox"), "\(staging.stdout)")
    }

    @Test func addingAnAppKeepsTheRestOfTheFile() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let config = folder + "/config.yaml"
        let original = """
            # our config
            amqp:
              url: amqp://guest:guest@127.0.0.1:5672/%2f   # the broker
            apps:   # credentials
              news:
                fcm:
                  service_account_file: \(keys)/fcm-service-account.json
            routes:
              - name: default
                match: {}
                app: news

            """
        try original.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(chmod(config, 0o640) == 0)
        let (status, console) = await herald(
            [
                folder + "/Downloads", "--config", config, "--non-interactive", "--no-fcm", "--team-id", "HERALDTEAM",
                "--bundle-id", "com.example.chat", "--environment", "sandbox", "--offline",
            ], home: "/nonexistent")
        #expect(status == 0, "\(console.stderr)")
        #expect(console.stdout.hasPrefix("herald init: added app 'chat' to \(config): apns sandbox com.example.chat"))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        let added = text.components(separatedBy: "\n").filter { !original.components(separatedBy: "\n").contains($0) }
        // The app: its apns section (6 lines) and the commented-out webpush section (7).
        #expect(added.first == "  chat:" && added.count == 14, "\(added)")
        #expect(text.replacingOccurrences(of: added.joined(separator: "\n") + "\n", with: "") == original)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int)
        #expect(mode == 0o640)

        // The same name again is refused and the file is left alone.
        let (again, refused) = await herald(
            [
                folder + "/Downloads", "--config", config, "--non-interactive", "--team-id", "HERALDTEAM",
                "--bundle-id", "com.example.chat", "--offline",
            ],
            home: "/nonexistent")
        #expect(again == 1)
        #expect(refused.stderr == "herald init: \(config) already has an app named 'chat'; choose another with --app")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == text)
    }

    @Test func interactiveAsksAgainForAWrongAnswer() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let config = folder + "/config.yaml"
        let (status, console) = await herald(
            ["--config", config, "--no-fcm", "--offline"], home: folder,
            answers: ["heraldteam", "HERALDTEAM", "com.example.news", "", "news-eu"])
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stderr.contains(
                "Apple team id (10 characters, Membership details in Apple's developer account):\n  expected 10 upper-case letters or digits\nApple team id"
            ))
        #expect(console.stderr.contains("Name of the app in Herald (events say \"app\": NAME) [news]:"))
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text.contains("      environment: ${NEWS_EU_APNS_ENVIRONMENT:-production}\n"))
        #expect(!text.contains("fcm:"))
    }

    @Test func whatTheFilesDoNotSayMustBeGivenWithoutPrompts() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let config = folder + "/config.yaml"
        let (status, console) = await herald(
            ["--config", config, "--non-interactive", "--bundle-id", "com.example.chat"], home: folder)
        #expect(status == 1)
        #expect(console.stderr == "herald init: --team-id is needed (--non-interactive asks nothing)")
        #expect(!FileManager.default.fileExists(atPath: config))

        try FileManager.default.copyItem(
            atPath: keys + "/apns-AuthKey.p8", toPath: folder + "/Downloads/AuthKey_OTHERKEY99.p8")
        let (several, listed) = await herald(
            ["--config", config, "--non-interactive", "--team-id", "HERALDTEAM"], home: folder)
        #expect(several == 1)
        #expect(
            listed.stderr == """
                herald init: found several APNs keys; choose one with --p8:
                  1. \(folder)/Downloads/AuthKey_HERALDKEY1.p8
                  2. \(folder)/Downloads/AuthKey_OTHERKEY99.p8
                """)

        let (none, nothing) = await herald(["--config", config, "--non-interactive", "/nonexistent"], home: folder)
        #expect(none == 1)
        #expect(
            nothing.stderr.hasPrefix(
                "herald init: found no APNs key (AuthKey_*.p8) or service-account JSON in /nonexistent"))

        let (bad, badTeam) = await herald(
            [
                "--config", config, "--non-interactive", "--team-id", "team", "--p8",
                folder + "/Downloads/AuthKey_HERALDKEY1.p8",
            ], home: folder)
        #expect(bad == 1)
        #expect(badTeam.stderr == "herald init: --team-id: expected 10 upper-case letters or digits, found 'team'")
    }

    @Test func dryRunPrintsTheConfigAndWritesNothing() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let config = folder + "/config.yaml"
        let (status, console) = await herald(
            ["--config", config, "--non-interactive", "--no-apns", "--dry-run"], home: folder)
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout.hasPrefix(
                "# herald init would write \(config):\n# Herald configuration, written by `herald init`."))
        #expect(
            console.stdout.contains(
                "  herald-dev:\n    fcm:\n      project_id: ${HERALD_DEV_FCM_PROJECT_ID:-herald-dev}\n"))
        #expect(!FileManager.default.fileExists(atPath: config))
    }

    @Test func theWrittenConfigIsProvenOnlineAgainstTheSimulator() async throws {
        let (folder, keys) = try await downloads()
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: keys) }
        let apnsKey = ["--apns-key", keys + "/apns-AuthKey.p8", "--key-id", "HERALDKEY1", "--team-id", "HERALDTEAM"]
        try await withSimulator(keys: keys, extraArguments: apnsKey) { port in
            // The service account's token_uri points at the simulator's OAuth endpoint on this port.
            let account = folder + "/Downloads/herald-dev-firebase-adminsdk-x1y2z.json"
            let text = try String(contentsOfFile: account, encoding: .utf8)
                .replacingOccurrences(of: "https://127.0.0.1:2197/token", with: "https://127.0.0.1:\(port)/token")
            try text.write(toFile: account, atomically: true, encoding: .utf8)
            let config = folder + "/config.yaml"
            let (status, console) = await herald(
                [
                    "--config", config, "--non-interactive", "--team-id", "HERALDTEAM", "--bundle-id",
                    "com.example.chat",
                    "--endpoint", "https://127.0.0.1:\(port)", "--ca-file", keys + "/ca.pem",
                ], home: folder)
            #expect(status == 0, "\(console.stdout)\n\(console.stderr)")
            #expect(console.stdout.contains("  online: chat/apns: ok: credentials accepted"), "\(console.stdout)")
            #expect(console.stdout.contains("  online: chat/fcm: ok"), "\(console.stdout)")
        }
    }

    @Test func keyIDsComeFromApplesFileNames() {
        #expect(CredentialDiscovery.keyID(fromFileName: "AuthKey_ABCDE12345.p8") == "ABCDE12345")
        #expect(CredentialDiscovery.keyID(fromFileName: "AuthKey_abc.p8") == nil)
        #expect(CredentialDiscovery.keyID(fromFileName: "key.p8") == nil)
        #expect(InitCommand.appName(bundleID: "com.example.Chat App", projectID: nil) == "chat-app")
        #expect(InitCommand.appName(bundleID: nil, projectID: "my-project-123") == "my-project-123")
    }
}
