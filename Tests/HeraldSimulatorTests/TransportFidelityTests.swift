import Foundation
import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldCrypto
import HeraldSimulator
import HeraldTestSupport
import Testing

/// What Apple's and Google's servers do with the connection itself, checked
/// with clients that share none of our code (nghttp, curl, Python's
/// google-auth) and with Herald's own `HTTPClient`: HTTP/2 only for APNs,
/// HTTP/1.1 too for Google, and each service's stream limit.
@Suite struct TransportFidelityTests {
    private func providerToken(_ key: PrivateKey) throws -> String {
        try JSONWebToken.sign(
            header: JSONObject([("alg", "ES256"), ("kid", .string(Fixtures.keyID))]),
            claims: JSONObject([
                ("iss", .string(Fixtures.teamID)), ("iat", .number(JSONNumber(Int(Timestamp.now().seconds)))),
            ]),
            with: key)
    }

    /// nghttp sends one notification and prints the frames it receives.
    private func nghttpNotification(_ sim: RunningSimulator, token: String) async throws -> ToolRun {
        let payload = try makeTemporaryDirectory("sim") + "/payload.json"
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        return try await runTool(
            "/usr/bin/nghttp",
            [
                "-v", "-n", "-d", payload, "-H", "authorization: bearer \(token)", "-H",
                "apns-topic: \(Fixtures.bundleID)",
                "\(sim.baseURL)/3/device/\(Fixtures.token)",
            ])
    }

    @Test func anAcceptedProviderTokenRaisesTheConnectionFromOneStreamToTheConfiguredMaximum() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        for streams in [7, nil] as [Int?] {
            let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
            let run = try await withSimulator(configuration, faults: SimulatorFaults(maxStreams: streams)) { sim in
                try await nghttpNotification(sim, token: try providerToken(key))
            }
            #expect(run.status == 0, "nghttp: \(run.output)")
            #expect(
                NghttpOutput.receivedMaxConcurrentStreams(run.output) == [1, streams ?? 1000],
                "1 until the token is accepted: \(run.output)")
            #expect(run.output.contains(":status: 200"), "delivered: \(run.output)")
        }
    }

    @Test func aRefusedProviderTokenLeavesTheConnectionAtOneStream() async throws {
        let (_, simulatorKey) = try Fixtures.key()
        let (otherKey, _) = try Fixtures.key()
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        let run = try await withSimulator(configuration) { sim in
            try await nghttpNotification(sim, token: try providerToken(otherKey))
        }
        #expect(run.output.contains(":status: 403"), "refused by APNs: \(run.output)")
        #expect(
            NghttpOutput.receivedMaxConcurrentStreams(run.output) == [1],
            "no accepted token, no more streams: \(run.output)")
    }

    @Test func heraldsHTTPClientKeepsDeliveringThroughTheChangeFromOneStreamToMany() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        // Each answer waits 100 ms: while the limit is 1, the next request
        // cannot arrive sooner than 100 ms after the one before.
        let faults = SimulatorFaults(latency: ConfigDuration(milliseconds: 100))
        let (results, arrivals, connections) = try await withSimulator(configuration, faults: faults) { sim in
            let (authentication, _) = try tokenAuth(key)
            return try await withProvider(sim, authentication: authentication) { provider in
                let results = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<100 {
                        group.addTask { (try? await deliver(provider, event()).get())?.status == .delivered }
                    }
                    return await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                return (results, sim.recorder.notifications.map(\.receivedAt).sorted(), sim.simulator.connectionsSeen)
            }
        }
        let undelivered = results.filter { !$0 }.count
        #expect(results.count == 100 && undelivered == 0, "every notification delivered: \(undelivered) not")
        #expect(connections == 1, "one connection (the provider's cap), no reconnects: \(connections)")
        let overlapping = zip(arrivals, arrivals.dropFirst()).filter { $1 - $0 < .milliseconds(100) }.count
        #expect(
            overlapping >= 90,
            "after the first accepted token the rest shared the connection: \(overlapping) of 99 arrived together")
    }

    @Test func googleConnectionsMoveToOneHundredStreamsAfterTheirFirstRequest() async throws {
        let oauth = OAuthSimulatorService(
            settings: OAuthSimulatorSettings(accounts: []), tokens: SimulatedAccessTokens())
        let run = try await withSimulator(APNsSimulatorConfiguration(), extraServices: [oauth]) { sim in
            try await runTool("/usr/bin/nghttp", ["-v", "-n", "-d", "/dev/null", "\(sim.baseURL)/token"])
        }
        #expect(run.output.contains(":status: 400"), "an empty grant is refused, but answered: \(run.output)")
        #expect(
            NghttpOutput.receivedMaxConcurrentStreams(run.output) == [1, 100],
            "Google's 100 once Google answered: \(run.output)")
    }

    @Test func apnsOverHTTP1IsRefusedWith505AsAppleServesOnlyHTTP2() async throws {
        let (run, counters) = try await withSimulator(APNsSimulatorConfiguration()) { sim in
            (
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "--http1.1", "--cacert", sim.pki.caCertificatePath, "-w",
                        " code=%{http_code} http=%{http_version}",
                        "-d", #"{"aps":{}}"#, "\(sim.baseURL)/3/device/\(Fixtures.token)",
                    ]),
                sim.recorder.counters
            )
        }
        #expect(run.output.hasSuffix(" code=505 http=1.1"), "curl: \(run.output)")
        #expect(run.output.contains(#""reason":"HTTPVersionNotSupported""#), "curl: \(run.output)")
        #expect(run.output.contains("apns accepts HTTP/2 only"), "curl: \(run.output)")
        #expect(counters["apns.505"] == 1, "counted like any answer: \(counters)")
    }

    /// google-auth (Debian's python3-google-auth, with its default `requests`
    /// transport: HTTP/1.1) exchanges a service-account assertion at the
    /// simulator's /token and sends one FCM message with the access token.
    static let googleAuthScript = #"""
        import json, os, sys
        key_file, ca, url = sys.argv[1], sys.argv[2], sys.argv[3]
        # requests prefers this to a session's own `verify` when both are set.
        os.environ["REQUESTS_CA_BUNDLE"] = ca
        import requests
        from google.oauth2 import service_account
        from google.auth.transport.requests import AuthorizedSession, Request
        credentials = service_account.Credentials.from_service_account_file(
            key_file, scopes=["https://www.googleapis.com/auth/firebase.messaging"])
        credentials.refresh(Request())
        authorized = AuthorizedSession(credentials)
        reply = authorized.post(url, json={"message": {"token": "fcm-token-1", "notification": {"title": "Hi"}}})
        print(json.dumps({"token": credentials.token[:8], "status": reply.status_code, "version": reply.raw.version,
                          "body": reply.json()}))
        """#

    @Test func googleAuthExchangesItsAssertionAndSendsToFCMOverHTTP1() async throws {
        let key = try PrivateKey.generateRSA()
        let directory = try makeTemporaryDirectory("sim")
        let recorder = NotificationRecorder()
        let tokens = SimulatedAccessTokens()
        let email = "herald-sim@herald-dev.iam.gserviceaccount.com"
        let account = SimulatedServiceAccount(
            clientEmail: email, keyID: "0123abcd", publicKey: key.publicKey, projectID: "herald-dev")
        let oauth = OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: [account]), tokens: tokens)
        let fcm = FCMSimulatorService(
            settings: FCMSimulatorSettings(projectIDs: ["herald-dev"]), tokens: tokens, recorder: recorder)
        let run = try await withSimulator(
            APNsSimulatorConfiguration(), recorder: recorder, extraServices: [oauth, fcm]
        ) { sim in
            let keyFile = directory + "/service-account.json"
            let keyJSON: JSONValue = [
                "type": "service_account", "project_id": "herald-dev", "private_key_id": "0123abcd",
                "private_key": .string(try key.pkcs8PEM()), "client_email": .string(email), "client_id": "1",
                "token_uri": .string("\(sim.baseURL)/token"),
            ]
            try Data(keyJSON.jsonString.utf8).write(to: URL(fileURLWithPath: keyFile))
            return try await runTool(
                "/usr/bin/python3",
                [
                    "-c", Self.googleAuthScript, keyFile, sim.pki.caCertificatePath,
                    "\(sim.baseURL)/v1/projects/herald-dev/messages:send",
                ])
        }
        try #require(
            !run.output.contains("No module named"), "google-auth is missing: run scripts/bootstrap (\(run.output))")
        let result = try #require(try? JSONValue.parse(Array(run.output.utf8)).objectValue, "python: \(run.output)")
        #expect(result["token"]?.stringValue == "ya29.sim", "an access token from the simulator: \(run.output)")
        #expect(result["status"]?.intValue == 200, "FCM accepted the message: \(run.output)")
        #expect(result["version"]?.intValue == 11, "requests spoke HTTP/1.1: \(run.output)")
        #expect(
            result["body"]?.objectValue?["name"]?.stringValue?.hasPrefix("projects/herald-dev/messages/") == true,
            "\(run.output)")
        #expect(recorder.notifications.map(\.target) == ["fcm-token-1"], "recorded like any accepted message")
    }
}
