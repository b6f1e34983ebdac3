import Foundation
import HeraldConfig
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSimulator
import HeraldTestSupport
import Testing

/// Simulator settings from YAML, and TLS material made at start-up.
@Suite struct SimulatorSetupTests {
    @Test func listeningBeyondLoopbackIsWarnedAbout() throws {
        for host in ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"] {
            #expect(SimulatorSettings.exposureWarning(listenHost: host) == nil, "\(host)")
        }
        for host in ["0.0.0.0", "", "::", "[::]", "10.1.2.3", "sim.example.com", "127.0.0.1.example.com"] {
            let warning = try #require(SimulatorSettings.exposureWarning(listenHost: host), "\(host)")
            #expect(
                warning
                    == "warning: listening on '\(host)', not a loopback address: the admin API under /_herald/ has no "
                    + "authentication, so whoever reaches this port can read every recorded notification, kill tokens, "
                    + "issue subscriptions and inject faults; keep --listen on 127.0.0.1 or ::1 unless the network is a test's own"
            )
        }
        // The host as `herald simulate` reads it from --listen.
        var settings = SimulatorSettings()
        settings.listen = "0.0.0.0:2197"
        #expect(SimulatorSettings.exposureWarning(listenHost: try settings.listenAddress().host) != nil)
    }

    @Test func yamlSettingsBecomeTheAPNsConfiguration() throws {
        let directory = try makeTemporaryDirectory("sim")
        let (key, _) = try Fixtures.key()
        try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let file = directory + "/sim.yaml"
        try """
        listen: 127.0.0.1:0
        record: \(directory)/record.jsonl
        apns:
          keys:
            - key_file: ${KEYS}/AuthKey.p8
              key_id: HERALDKEY1
              team_id: HERALDTEAM
          topics: [com.example.chat]
          dead_tokens:
            - \(String(repeating: "aa", count: 32))
            - {token: \(String(repeating: "bb", count: 32)), since: "2026-11-30T10:00:00.5Z"}
          token_update_interval: 20m
          per_token_limit: {requests: 3, per: 2s}
        faults: {error_rate: 0.25, error_status: 503, latency: 20ms, goaway_after_streams: 100, max_streams: 10, rate_limit: {requests: 50}}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try SimulatorSettings.load(file: file, environment: ["KEYS": directory])
        let now = Timestamp(seconds: 1_800_000_000)
        let apns = try #require(settings.section(SimulatorSettings.APNs.self)).configuration(now: now)
        #expect(apns.keys.map { "\($0.keyID)/\($0.teamID)" } == ["HERALDKEY1/HERALDTEAM"])
        #expect(apns.bundleIDs == ["com.example.chat"])
        #expect(
            apns.deadTokens == [
                String(repeating: "aa", count: 32): now,
                String(repeating: "bb", count: 32): Timestamp(seconds: 1_796_032_800, nanoseconds: 500_000_000),
            ])
        #expect(apns.minimumTokenUpdateInterval == .seconds(1200))
        #expect(apns.perTokenLimit == 3)
        #expect(apns.perTokenWindow == .seconds(2))
        #expect(
            settings.faults
                == SimulatorFaults(
                    errorRate: 0.25, errorStatus: 503, latency: .init(milliseconds: 20), goAwayAfterStreams: 100,
                    maxStreams: 10, rateLimit: .init(requests: 50)))
        #expect(try settings.listenAddress() == ("127.0.0.1", 0))
    }

    @Test func impossibleFaultIsReportedAtItsLine() throws {
        let file = try makeTemporaryDirectory("sim") + "/sim.yaml"
        try "faults:\n  error_rate: 2\n".write(toFile: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) { try SimulatorSettings.load(file: file, environment: [:]) }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.hasPrefix(file + ":"), "\(text)")
        #expect(text.contains("expected a fraction from 0 to 1, found 2.0"), "\(text)")
    }

    @Test func zeroStreamsIsRefusedNamingTheKey() throws {
        let file = try makeTemporaryDirectory("sim") + "/sim.yaml"
        try "faults:\n  max_streams: 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) { try SimulatorSettings.load(file: file, environment: [:]) }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("max_streams"), "\(text)")
        #expect(text.contains("expected a positive number of streams, found 0"), "\(text)")
    }

    @Test func generatedCAAndServerCertificateServeTLSToOurClient() async throws {
        let directory = try makeTemporaryDirectory("sim") + "/tls"
        let material = try SimulatorTLSMaterial.generate(in: directory)
        #expect(SimulatorTLSMaterial.existing(in: directory) == material)
        let permissions =
            try FileManager.default.attributesOfItem(atPath: material.serverKeyPath)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(
                tls: HTTP2ServerTLSConfiguration(
                    certificateChainFile: material.serverCertificatePath, privateKeyFile: material.serverKeyPath)),
            handler: Simulator(services: [], recorder: NotificationRecorder(), logger: Fixtures.logger),
            logger: Fixtures.logger)
        let statuses = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            defer { server.shutdown(graceful: false) }
            let configuration = HTTPClientConfiguration(
                tls: HTTPClientTLSConfiguration(caFile: material.caCertificatePath))
            let statuses = try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) {
                client in
                var statuses: [Int] = []
                for host in ["localhost", "127.0.0.1"] {
                    statuses.append(
                        try await client.send(HTTPClientRequest(url: "https://\(host):\(server.port)/nowhere")).status)
                }
                return statuses
            }
            server.shutdown(graceful: false)
            try await group.waitForAll()
            return statuses
        }
        #expect(statuses == [404, 404])
    }

    @Test func faultInjectorAppliesTheRateLimitPerWindowThenTheErrorRate() {
        let injector = FaultInjector(
            faults: SimulatorFaults(errorRate: 0.5, errorStatus: 503, rateLimit: .init(requests: 2, per: .seconds(1))),
            random: { 0.7 })
        func decide(_ injector: FaultInjector, at time: Timestamp) -> FaultInjector.Decision {
            injector.decide(service: "apns", addressee: { nil }, at: time).decision
        }
        let t0 = Timestamp(seconds: 1_800_000_000)
        #expect(decide(injector, at: t0) == .handle)
        #expect(decide(injector, at: t0 + .milliseconds(10)) == .handle)
        #expect(decide(injector, at: t0 + .milliseconds(20)) == .error(status: 429))
        #expect(decide(injector, at: t0 + .seconds(1)) == .handle)
        let failing = FaultInjector(faults: SimulatorFaults(errorRate: 0.5, errorStatus: 503), random: { 0.2 })
        #expect(decide(failing, at: t0) == .error(status: 503))
    }

    @Test func oneDrawPicksAnErrorAResetOrAHangInThatOrder() {
        let faults = SimulatorFaults(errorRate: 0.1, resetRate: 0.2, hangRate: 0.3)
        let t0 = Timestamp(seconds: 1_800_000_000)
        let decisions = [0.05, 0.15, 0.45, 0.65].map { draw in
            FaultInjector(faults: faults, random: { draw }).decide(service: "fcm", addressee: { nil }, at: t0).decision
        }
        #expect(decisions == [.error(status: 500), .reset, .hang, .handle])
    }

    @Test func faultsReachOnlyTheirServicesAndTokens() {
        let t0 = Timestamp(seconds: 1_800_000_000)
        let latency = ConfigDuration(milliseconds: 30)
        let everywhere = FaultInjector(faults: SimulatorFaults(errorRate: 1, latency: latency))
        #expect(
            everywhere.decide(service: "apns", addressee: { nil }, at: t0)
                == FaultInjector.Verdict(decision: .error(status: 500), latency: .milliseconds(30)))
        #expect(everywhere.decide(service: "fcm", addressee: { nil }, at: t0).decision == .error(status: 500))
        // OAuth is out of reach unless named: an outage test should not also break the token exchange.
        #expect(
            everywhere.decide(service: "oauth", addressee: { nil }, at: t0)
                == FaultInjector.Verdict(decision: .handle, latency: nil))

        let aimed = FaultInjector(faults: SimulatorFaults(errorRate: 1, services: ["apns"], tokens: ["ABCD", "news"]))
        func token(_ token: String) -> SimulatedAddressee {
            SimulatedAddressee(target: token, token: token, topic: nil, tokenIgnoresCase: true)
        }
        #expect(aimed.decide(service: "apns", addressee: { token("abcd") }, at: t0).decision == .error(status: 500))
        #expect(aimed.decide(service: "apns", addressee: { token("ef01") }, at: t0).decision == .handle)
        #expect(aimed.decide(service: "apns", addressee: { nil }, at: t0).decision == .handle)
        #expect(aimed.decide(service: "fcm", addressee: { token("abcd") }, at: t0).decision == .handle)
        let topic = SimulatedAddressee(target: "news", token: nil, topic: "news")
        let fcmToo = FaultInjector(faults: SimulatorFaults(errorRate: 1, services: ["fcm"], tokens: ["news"]))
        #expect(fcmToo.decide(service: "fcm", addressee: { topic }, at: t0).decision == .error(status: 500))
    }

    @Test(arguments: [
        (
            "faults:\n  reset_rate: 0.5\n  hang_rate: 0.6\n",
            "3:14: faults.hang_rate: error_rate, reset_rate, hang_rate and drop_rate add up to 1.1, over 1"
        ),
        (
            "faults:\n  services: [apns, fcn]\n",
            "2:13: faults.services: expected apns, fcm, oauth or webpush, found 'fcn'"
        ),
        (
            "fcm:\n  token_errors: {tok-1: SENDER_ID_MISMACH}\n",
            "2:25: fcm.token_errors.tok-1: unknown value 'SENDER_ID_MISMACH' (did you mean 'SENDER_ID_MISMATCH'?)"
        ),
        (
            "fcm:\n  quota: {requests: 0, per: 1m}\n",
            "2:10: fcm.quota: expected at least 1 request per a positive duration"
        ),
        (
            "fcm:\n  quota: {requests: 600000, per: 0s}\n",
            "2:10: fcm.quota: expected at least 1 request per a positive duration"
        ),
        (
            "fcm:\n  quota: {requests: 600000, per: a minute}\n",
            "2:34: fcm.quota.per: expected a duration like 500ms, 5s, 2m or 1h, found 'a minute'"
        ),
        ("fcm:\n  quota: {per: 1m}\n", "2:10: fcm.quota: missing required key 'requests'"),
        (
            "apns:\n  per_token_limit: {requests: 0}\n",
            "2:20: apns.per_token_limit: expected at least 1 request per a positive duration"
        ),
        (
            "webpush:\n  subscriptions: -1\n",
            "2:18: webpush.subscriptions: expected a number of subscriptions, 0 or more, found -1"
        ),
    ])
    func impossibleSettingsAreReportedAtTheirPosition(yaml: String, expected: String) throws {
        let file = try makeTemporaryDirectory("sim") + "/sim.yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) { try SimulatorSettings.load(file: file, environment: [:]) }
        #expect(error.map { "\($0)" } == file + ":" + expected)
    }

    @Test func theFCMQuotaComesFromYAMLForEveryProject() throws {
        let directory = try makeTemporaryDirectory("sim")
        try FCMFixture.accountJSON(baseURL: "https://127.0.0.1:2197").write(
            toFile: directory + "/account.json", atomically: true, encoding: .utf8)
        let file = directory + "/sim.yaml"
        try """
        fcm:
          service_accounts: [\(directory)/account.json]
          projects: [herald-sim, herald-other]
          quota: {requests: 600000, per: 1m}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try SimulatorSettings.load(file: file, environment: [:])
        #expect(
            settings.section(SimulatorSettings.FCM.self)?.quota
                == SimulatorFaults.RateLimit(requests: 600000, per: .seconds(60)))
        let fcm = try #require(
            try settings.section(SimulatorSettings.FCM.self)?.fcmServices(recorder: NotificationRecorder())
        ).fcm
        #expect(fcm.settings.quota == FCMSimulatorSettings.Quota(messages: 600000, window: .seconds(60)))
        #expect(fcm.settings.projectIDs == ["herald-sim", "herald-other"])

        try "fcm:\n  service_accounts: [\(directory)/account.json]\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let unlimited = try #require(
            try SimulatorSettings.load(file: file, environment: [:]).section(SimulatorSettings.FCM.self)?.fcmServices(
                recorder: NotificationRecorder()))
        #expect(unlimited.fcm.settings.quota == nil, "no quota unless asked for")
    }

    @Test func fcmTokenErrorsAndTheProbeTopicComeFromYAML() throws {
        let directory = try makeTemporaryDirectory("sim")
        let file = directory + "/sim.yaml"
        try """
        fcm:
          dead_tokens: [gone, both]
          token_errors: {other-app: SENDER_ID_MISMATCH, busy: QUOTA_EXCEEDED, both: INTERNAL, ios: THIRD_PARTY_AUTH_ERROR}
          probe_topic: acme-check
        faults: {hang_rate: 0.25, services: [fcm, oauth], tokens: [busy]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try SimulatorSettings.load(file: file, environment: [:])
        let fcm = try #require(settings.section(SimulatorSettings.FCM.self))
        #expect(
            fcm.allTokenErrors == [
                "gone": .unregistered, "both": .internalError, "other-app": .senderIDMismatch, "busy": .quotaExceeded,
                "ios": .thirdPartyAuthError,
            ])
        #expect(fcm.probeTopic == "acme-check")
        #expect(settings.faults == SimulatorFaults(hangRate: 0.25, services: ["fcm", "oauth"], tokens: ["busy"]))
    }
}
