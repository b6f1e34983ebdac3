import Foundation
import HeraldAPNs
import HeraldCLI
import HeraldCore
import HeraldFCM
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// `herald simulate` run in-process: flags, generated TLS material, recording.
@Suite struct SimulateCommandTests {
    /// Waits (bounded) until the command prints its listening line; returns the port.
    func listeningPort(_ console: CapturedConsole) async throws -> Int {
        var port: Int?
        _ = await eventually(timeout: .seconds(60)) {
            let line = console.stdout.split(separator: "\n").first { $0.contains("listening on https://127.0.0.1:") }
            port = line.flatMap { Int($0.split(separator: ":").last ?? "") }
            return port != nil
        }
        guard let port else { throw TestFailure("herald simulate printed no listening line: \(console.stderr)") }
        return port
    }

    /// Starts `herald simulate` serving FCM for `FCMFixture`'s account, with
    /// `flags`; returns the command (cancel it to stop), its URL and CA file.
    func simulateFCM(_ flags: [String], console: CapturedConsole) async throws -> (
        command: Task<Int32, Never>, baseURL: String, caFile: String
    ) {
        let directory = try makeTemporaryDirectory("sim")
        // The simulator reads the key's public half, email and project; Herald's copy (FCMFixture) names its token_uri.
        try FCMFixture.accountJSON(baseURL: "https://127.0.0.1:2197").write(
            toFile: directory + "/account.json", atomically: true, encoding: .utf8)
        let command = Task {
            await HeraldCommandLine().run(
                [
                    "simulate", "--listen", "127.0.0.1:0", "--tls-dir", directory + "/tls", "--fcm-service-account",
                    directory + "/account.json",
                ] + flags, environment: [:], console: console)
        }
        let port = try await listeningPort(console)
        return (command, "https://127.0.0.1:\(port)", directory + "/tls/ca.pem")
    }

    @Test func simulateGeneratesItsCAVerifiesTokensAndRecordsUntilCancelled() async throws {
        let directory = try makeTemporaryDirectory("sim")
        let (key, _) = try Fixtures.key()
        try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let dead = String(repeating: "dd", count: 32)
        let console = CapturedConsole()
        let command = Task {
            await HeraldCommandLine().run(
                [
                    "simulate", "--listen", "127.0.0.1:0", "--tls-dir", directory + "/tls", "--apns-key",
                    directory + "/AuthKey.p8",
                    "--key-id", Fixtures.keyID, "--team-id", Fixtures.teamID, "--topic", Fixtures.bundleID,
                    "--dead-token", dead,
                    "--record", directory + "/record.jsonl",
                ], environment: [:], console: console)
        }
        let port = try await listeningPort(console)
        #expect(console.stdout.contains("CA certificate (give it to clients as ca_file): \(directory)/tls/ca.pem"))
        let configuration = APNsProviderConfiguration(
            bundleID: Fixtures.bundleID, baseURL: "https://localhost:\(port)", authentication: try tokenAuth(key).0,
            caFile: directory + "/tls/ca.pem")
        let (ok, gone) = try await HTTPClient.withClient(
            configuration: configuration.httpClientConfiguration, logger: Fixtures.logger
        ) {
            let provider = APNsProvider(configuration: configuration, client: $0, logger: Fixtures.logger)
            return (await deliver(provider, event()), await deliver(provider, event(token: dead)))
        }
        command.cancel()
        #expect(await command.value == 0)
        #expect(try ok.get().status == .delivered)
        #expect(try gone.get().reason == "Unregistered")
        let lines = try String(contentsOfFile: directory + "/record.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try JSONValue.parse(String(lines[0]))["target"]?.stringValue == Fixtures.token)
    }

    @Test func simulateTakesEveryFCMErrorCodeTheProbeTopicAndAimedFaultsFromFlags() async throws {
        let console = CapturedConsole()
        let (command, base, ca) = try await simulateFCM(
            [
                "--fcm-dead-token", "gone", "--fcm-token-error",
                "other-app=SENDER_ID_MISMATCH,busy=QUOTA_EXCEEDED,ios=THIRD_PARTY_AUTH_ERROR,bad=INVALID_ARGUMENT,down=UNAVAILABLE,broken=INTERNAL",
                "--probe-topic", "acme-check", "--reset-rate", "1", "--fault-services", "fcm", "--fault-tokens",
                "flaky",
            ], console: console)
        #expect(console.stdout.contains("  admin API: \(base)/_herald/ (docs/simulator-admin.md)"), "\(console.stdout)")
        let tokens = try await curl(baseURL: base, caFile: ca, "GET", "/_herald/tokens")
        #expect(
            tokens.answer?.body == """
                {"apns":{},"fcm":{"bad":"INVALID_ARGUMENT","broken":"INTERNAL","busy":"QUOTA_EXCEEDED","down":"UNAVAILABLE",\
                "gone":"UNREGISTERED","ios":"THIRD_PARTY_AUTH_ERROR","other-app":"SENDER_ID_MISMATCH"}}
                """)
        let faults = try await curl(baseURL: base, caFile: ca, "GET", "/_herald/faults")
        #expect(faults.answer?.json?["services"] == ["fcm"])
        #expect(faults.answer?.json?["tokens"] == ["flaky"])
        #expect(faults.answer?.json?["reset_rate"] == 1.0)
        let outcomes = try await FCMFixture.withProvider(baseURL: base, caFile: ca) { provider async throws in
            var outcomes: [String] = []
            for token in ["gone", "bad", "other-app", "busy", "down", "broken", "ios", "flaky", "fine"] {
                switch await deliver(provider, fcmEvent(.token(token))) {
                case .success(let result): outcomes.append("\(token) \(result.reason ?? "\(result.status)")")
                case .failure(let failure) where failure.answerLost:
                    outcomes.append("\(token) \(failure.reason) (\(failure.detail ?? ""))")
                case .failure(let failure): outcomes.append("\(token) \(failure.reason)")
                }
            }
            #expect(try await provider.probeProject().ok)
            return outcomes
        }
        #expect(
            outcomes == [
                "gone UNREGISTERED", "bad INVALID_ARGUMENT", "other-app SENDER_ID_MISMATCH", "busy QUOTA_EXCEEDED",
                "down UNAVAILABLE",
                "broken INTERNAL",
                "ios THIRD_PARTY_AUTH_ERROR: APNs (or Web Push) refused the credentials uploaded to Firebase; check the APNs auth key or "
                    + "certificate in the Firebase console (Project settings > Cloud Messaging)",
                "flaky no answer before the connection was lost; the provider may have accepted it "
                    + "(transport connectionLost: the server reset the stream (INTERNAL_ERROR))",
                "fine delivered",
            ])
        let probes = try await curl(baseURL: base, caFile: ca, "GET", "/_herald/delivered?probes=only")
        #expect(probes.answer?.body == #"{"delivered":[]}"#, "herald-check is not the probe topic here")
        command.cancel()
        #expect(await command.value == 0)
    }

    @Test func simulateTakesAnFCMProjectQuotaFromFlags() async throws {
        let (command, base, ca) = try await simulateFCM(["--fcm-quota", "2/1m"], console: CapturedConsole())
        let outcomes = try await FCMFixture.withProvider(baseURL: base, caFile: ca) { provider async throws in
            var outcomes: [Result<DeliveryResult, DeliveryFailure>] = []
            for token in ["q-1", "q-2", "q-3"] { outcomes.append(await deliver(provider, fcmEvent(.token(token)))) }
            return outcomes
        }
        command.cancel()
        #expect(await command.value == 0)
        #expect(outcomes.map { (try? $0.get())?.status } == [.delivered, .delivered, nil])
        guard case .failure(let refused) = outcomes.last else {
            Issue.record("the third message was delivered"); return
        }
        #expect(refused.reason == "QUOTA_EXCEEDED")
        #expect(refused.providerStatus == 429)
        #expect(
            refused.detail?.contains("Quota exceeded for quota metric 'Send requests'") == true,
            "\(refused.detail ?? "")")
        #expect(
            refused.retryAfter.map { $0 > .zero && $0 <= .seconds(60) } == true,
            "the window's end: \(String(describing: refused.retryAfter))")
    }

    @Test(arguments: [
        (
            ["--fcm-token-error", "tok-1"],
            "--fcm-token-error: expected TOKEN=CODE such as tok-1=SENDER_ID_MISMATCH, found 'tok-1'"
        ),
        (
            ["--fcm-token-error", "tok-1=GONE"],
            "--fcm-token-error: expected one of UNREGISTERED, INVALID_ARGUMENT, SENDER_ID_MISMATCH, "
                + "QUOTA_EXCEEDED, UNAVAILABLE, INTERNAL, THIRD_PARTY_AUTH_ERROR after '=', found 'GONE'"
        ),
        (["--hang-rate", "2"], "--hang-rate: expected a fraction from 0 to 1, found '2'"),
        (["--drop-rate", "-1"], "--drop-rate: expected a fraction from 0 to 1, found '-1'"),
        (
            ["--reset-rate", "0.5", "--drop-rate", "0.6"],
            "faults: drop_rate: error_rate, reset_rate, hang_rate and drop_rate add up to 1.1, over 1"
        ),
        (
            ["--reset-rate", "0.6", "--hang-rate", "0.6"],
            "faults: hang_rate: error_rate, reset_rate, hang_rate and drop_rate add up to 1.2, over 1"
        ),
        (["--fault-services", "apns,fcn"], "faults: services: expected apns, fcm, oauth or webpush, found 'fcn'"),
        (
            ["--fcm-quota", "600000"],
            "--fcm-quota: expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '600000'"
        ),
        (
            ["--fcm-quota", "0/1m"],
            "--fcm-quota: expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '0/1m'"
        ),
        (
            ["--fcm-quota", "100/0s"],
            "--fcm-quota: expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '100/0s'"
        ),
        (
            ["--fcm-quota", "100/minute"],
            "--fcm-quota: expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '100/minute'"
        ),
    ])
    func simulateRefusesFaultAndTokenFlagsThatCannotWork(arguments: [String], message: String) async {
        let console = CapturedConsole()
        #expect(await HeraldCommandLine().run(["simulate"] + arguments, environment: [:], console: console) == 64)
        #expect(console.stderr.hasPrefix("herald simulate: \(message)\n"), "\(console.stderr)")
    }
}
