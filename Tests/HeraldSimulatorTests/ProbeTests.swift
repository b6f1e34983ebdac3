import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldSimulator
import HeraldTestSupport
import Testing

/// The probes `herald check --online` sends: the APNs all-zero token is
/// answered 400 BadDeviceToken, as Apple answers a token no device has, and
/// both providers' probes are recorded as probes, not notifications.
@Suite struct ProbeTests {
    static let zero = String(repeating: "0", count: 64)

    @Test func theAllZeroTokenIsABadDeviceTokenRecordedAsAProbe() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let file = try makeTemporaryDirectory("sim") + "/record.jsonl"
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), recordTo: file) { sim async throws in
            let answered = try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                try await deliver(provider, event(token: Self.zero)).get()
            }
            #expect(answered.providerStatus == 400)
            #expect(answered.reason == "BadDeviceToken")
            #expect(
                try await call(sim, "GET", "/_herald/refused").body == #"{"refused":[]}"#,
                "probes are left out by default")
            #expect(try await call(sim, "GET", "/_herald/delivered?probes=include").body == #"{"delivered":[]}"#)
            let probes = try await call(sim, "GET", "/_herald/refused?probes=only").json?["refused"]?.arrayValue ?? []
            #expect(probes.count == 1)
            #expect(probes.first?["target"]?.stringValue == Self.zero)
            #expect(probes.first?["status"] == 400)
            #expect(probes.first?["reason"] == "BadDeviceToken")
            #expect(probes.first?["answer"] == ["reason": "BadDeviceToken"])
            #expect(probes.first?["probe"] == true)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "", "a probe is not a delivered notification")
    }

    @Test func fcmsValidateOnlyProbeIsRecordedAsAProbeNotADelivery() async throws {
        try await withSimulator(
            APNsSimulatorConfiguration(), fcm: FCMSimulatorSettings(projectIDs: [FCMFixture.projectID])
        ) { sim async throws in
            try await FCMFixture.withProvider(sim) { provider async throws in
                #expect(try await provider.probeProject() == .accepted(projectID: FCMFixture.projectID))
                #expect(try await deliver(provider, fcmEvent(.topic("news"))).get().status == .delivered)
            }
            let delivered = try await call(sim, "GET", "/_herald/delivered").json?["delivered"]?.arrayValue ?? []
            #expect(delivered.map { $0["target"] } == ["news"])
            let probe = try #require(
                try await call(sim, "GET", "/_herald/delivered?probes=only").json?["delivered"]?[0])
            #expect(probe["provider"] == "fcm")
            #expect(probe["target"] == "herald-check")
            #expect(probe["message_id"]?.stringValue == "projects/\(FCMFixture.projectID)/messages/fake_message_id")
            #expect(probe["payload"] == ["topic": "herald-check", "notification": ["body": "herald check --online"]])
            #expect(probe["probe"] == true)
            #expect(sim.recorder.notifications.map(\.target) == ["news"])
        }
    }

    @Test func theProbeTopicIsTheOneConfigured() async throws {
        let fcm = FCMSimulatorSettings(projectIDs: [FCMFixture.projectID], probeTopic: "acme-check")
        try await withSimulator(APNsSimulatorConfiguration(), fcm: fcm) { sim async throws in
            func validateOnly(_ topic: String) async throws -> Int? {
                try await curl(
                    sim, "POST", "/v1/projects/\(FCMFixture.projectID)/messages:send",
                    headers: [
                        "authorization: Bearer \(try FCMFixture.bearer(sim))"
                    ], body: #"{"validate_only":true,"message":{"topic":"\#(topic)"}}"#
                ).answer?.status
            }
            #expect(try await validateOnly("herald-check") == 200)
            #expect(try await validateOnly("acme-check") == 200)
            let probes =
                try await call(sim, "GET", "/_herald/delivered?probes=include").json?["delivered"]?.arrayValue ?? []
            #expect(probes.map { $0["target"] } == ["acme-check"], "a validate_only message elsewhere is not recorded")
        }
    }
}
