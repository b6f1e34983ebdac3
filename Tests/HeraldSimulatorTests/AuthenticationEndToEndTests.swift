import HeraldAPNs
import HeraldCLI
import HeraldCore
import HeraldCrypto
import HeraldSimulator
import Foundation
import HeraldTestSupport
import Testing

/// Provider tokens and client certificates, end to end over TLS.
@Suite struct AuthenticationEndToEndTests {
    @Test func expiredProviderTokenIsEvictedRefreshedOnceAndTheNotificationDelivered() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let now = Timestamp.now()
        // The first token is signed 61 minutes in the past; the refresh uses the real time.
        let clock = TestClock(script: [now + .seconds(-61 * 60), now])
        let (authentication, manager) = try tokenAuth(key, clock: { clock.read() })
        let result = try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let result = try await withProvider(sim, authentication: authentication) { await deliver($0, event()) }
            #expect(sim.recorder.counters == ["apns.403": 1, "apns.200": 1])
            return result
        }
        #expect(try result.get().status == .delivered)
        #expect(manager.issuedCount == 2)
    }

    @Test func thePreparedRequestIsSentAsBuiltAlsoAfterATokenRefresh() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let now = Timestamp.now()
        let clock = TestClock(script: [now + .seconds(-61 * 60), now])
        let (authentication, _) = try tokenAuth(key, clock: { clock.read() })
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let sent = event()
            let result = try await withProvider(sim, authentication: authentication) { provider in
                let prepared = try provider.prepare(sent, for: sent.targets[0])
                let request = prepared.request
                let result = try await provider.send(prepared, attempt: 1)
                // Both requests (refused with the stale token, then accepted) carried the prepared apns-id and body.
                let id = try #require(request.headers.value(APNsHeaderName.id))
                #expect(result.providerMessageID == id)
                #expect(sim.recorder.notifications.map(\.messageID) == [id])
                #expect(
                    sim.recorder.notifications.first?.payload.jsonString
                        == String(decoding: request.body, as: UTF8.self))
                return result
            }
            #expect(sim.recorder.counters == ["apns.403": 1, "apns.200": 1])
            #expect(result.status == .delivered)
        }
    }

    @Test func logsMaskTheDeviceTokenAndNeverCarryTheProviderToken() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let now = Timestamp.now()
        let clock = TestClock(script: [now + .seconds(-61 * 60), now])
        let sink = MemoryLogSink()
        let logger = Logger(label: "test", level: .trace, sink: sink)
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let result = try await withProvider(
                sim, authentication: try tokenAuth(key, clock: { clock.read() }).0, logger: logger
            ) {
                await deliver($0, event())
            }
            #expect(try result.get().status == .delivered)
        }
        let apnsLines = sink.lines.filter { $0.contains("\"logger\":\"test.apns\"") }
        #expect(apnsLines.count == 3, "\(apnsLines)")
        #expect(
            apnsLines.contains {
                $0.contains("refused the provider token") && $0.contains("\"reason\":\"ExpiredProviderToken\"")
            })
        #expect(apnsLines.allSatisfy { !$0.contains(Fixtures.token) && !$0.contains("eyJ") && !$0.contains("bearer") })
        #expect(apnsLines.filter { $0.contains("\"token\":\"0a0a0a0a…\"") }.count == 2)
    }

    @Test func tokenFromAKeyAppleDoesNotKnowFailsAfterOneRefresh() async throws {
        let (_, simulatorKey) = try Fixtures.key()
        let (authentication, manager) = try tokenAuth(try PrivateKey.generateP256())
        let result = try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            let result = try await withProvider(sim, authentication: authentication) { await deliver($0, event()) }
            #expect(sim.recorder.counters == ["apns.403": 2])
            return result
        }
        let answered = try result.get()
        #expect(answered.status == .failed)
        #expect(answered.reason == "InvalidProviderToken")
        #expect(answered.providerStatus == 403)
        #expect(manager.issuedCount == 2)
    }

    @Test func concurrentSendsShareOneTokenAndTheSimulatorSeesOnlyIt() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        var configuration = APNsSimulatorConfiguration(keys: [simulatorKey])
        configuration.minimumTokenUpdateInterval = .seconds(20 * 60)
        let (authentication, manager) = try tokenAuth(key)
        try await withSimulator(configuration) { sim in
            let delivered = try await withProvider(sim, authentication: authentication) { provider in
                await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<20 {
                        group.addTask { (try? await deliver(provider, event()).get())?.status == .delivered }
                    }
                    return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
            #expect(delivered == 20)
            #expect(sim.recorder.counters == ["apns.200": 20])
        }
        #expect(manager.issuedCount == 1)
    }

    @Test func secondTeamTokenWithinTwentyMinutesIsTooManyProviderTokenUpdates() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        var configuration = APNsSimulatorConfiguration(keys: [simulatorKey])
        configuration.minimumTokenUpdateInterval = .seconds(20 * 60)
        try await withSimulator(configuration) { sim in
            let first = try await withProvider(sim, authentication: try tokenAuth(key).0) { await deliver($0, event()) }
            #expect(try first.get().status == .delivered)
            let second = try await withProvider(sim, authentication: try tokenAuth(key).0) {
                await deliver($0, event())
            }
            guard case .failure(let failure) = second else { Issue.record("expected 429, got \(second)"); return }
            #expect(failure.description == "TooManyProviderTokenUpdates (HTTP 429)")
        }
    }

    @Test func pkcs12ClientCertificateAuthenticatesWithoutAnyJWT() async throws {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(
            commonName: "Apple Push Services: com.example.chat", pkcs12Password: "s3cret")
        // No keys configured: a JWT, if one were sent, would be refused.
        let result = try await withSimulator(APNsSimulatorConfiguration(), acceptClientCertificates: true) { sim in
            try await withProvider(sim, authentication: .certificate(path: identity.pkcs12Path, password: "s3cret")) {
                await deliver($0, event())
            }
        }
        #expect(try result.get().status == .delivered)
    }

    /// `certificate_pem` from the environment, through the config: `herald
    /// send` authenticates with it, and it shows in no output.
    @Test func certificatePEMFromTheEnvironmentAuthenticates() async throws {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(commonName: "com.example.chat")
        let pem =
            try String(contentsOfFile: identity.certificatePath, encoding: .utf8)
            + String(contentsOfFile: identity.keyPath, encoding: .utf8)
        try await withSimulator(APNsSimulatorConfiguration(), acceptClientCertificates: true) { sim in
            let directory = try makeTemporaryDirectory("sim")
            try """
            apps:
              chat:
                apns:
                  certificate_pem: ${APNS_CERTIFICATE_PEM}
                  topic: com.example.chat
                  endpoint: \(sim.baseURL)
                  ca_file: \(sim.pki.caCertificatePath)
            """.write(toFile: directory + "/config.yaml", atomically: true, encoding: .utf8)
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                [
                    "send", "--config", directory + "/config.yaml", "--app", "chat", "--provider", "apns", "--token",
                    Fixtures.token, "--body", "x",
                ], environment: ["APNS_CERTIFICATE_PEM": pem], console: console)
            #expect(status == 0, "\(console.stdout) \(console.stderr)")
            #expect(try JSONValue.parse(console.stdout)["status"] == "delivered")
            let check = CapturedConsole()
            #expect(
                await HeraldCommandLine().run(
                    ["check", "--config", directory + "/config.yaml"], environment: ["APNS_CERTIFICATE_PEM": pem],
                    console: check) == 0, "\(check.stderr)")
            #expect(check.stdout.contains("apns (certificate auth, topic com.example.chat"), "\(check.stdout)")
            let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
            #expect(!(console.stdout + console.stderr + check.stdout + check.stderr).contains(body))
        }
    }

    @Test func pemClientCertificateAuthenticatesAndAnotherAppsTopicIsDisallowed() async throws {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(commonName: "com.example.chat")
        let bundle = try makeTemporaryDirectory("sim") + "/identity.pem"
        let pem =
            try String(contentsOfFile: identity.certificatePath, encoding: .utf8)
            + String(contentsOfFile: identity.keyPath, encoding: .utf8)
        try pem.write(toFile: bundle, atomically: true, encoding: .utf8)
        try await withSimulator(APNsSimulatorConfiguration(), acceptClientCertificates: true) { sim in
            let ok = try await withProvider(sim, authentication: .certificate(path: bundle, password: nil)) {
                await deliver($0, event())
            }
            #expect(try ok.get().status == .delivered)
            let other = try await withProvider(
                sim, authentication: .certificate(path: bundle, password: nil), bundleID: "com.other.app"
            ) {
                await deliver($0, event())
            }
            #expect(
                try other.get()
                    == DeliveryResult(
                        .failed, reason: "TopicDisallowed", providerStatus: 400,
                        providerMessageID: try other.get().providerMessageID,
                        latency: try other.get().latency))
        }
    }
}
