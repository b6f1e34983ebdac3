import HeraldAPNs
import HeraldCore
import HeraldCrypto
import HeraldPipeline
import HeraldSimulator
import HeraldTestSupport
import Testing

/// `APNsProvider` on our `HTTPClient` against the simulator on our
/// `HTTP2Server`, over real TLS: every payload field, every push type,
/// every error path.
@Suite struct ProviderEndToEndTests {
    @Test func everyPayloadFieldArrivesAsBuilt() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let notification = Event.Notification(
            title: "T", subtitle: "S", body: "B", badge: 0,
            sound: .init(name: "alarm.caf", critical: true, volume: 0.5),
            image: "https://cdn.example.com/a.jpg", category: "MESSAGE", threadID: "t-42", titleLocKey: "TK",
            titleLocArgs: ["x"],
            locKey: "BK", locArgs: ["y"])
        var sent = event(
            notification: notification, data: json(#"{"screen":"chat","n":42}"#),
            apns: APNsOverrides(
                payload: json(
                    """
                    {"aps":{"interruption-level":"time-sensitive","relevance-score":0.5,"target-content-id":"w1","url-args":["a"]}}
                    """)))
        sent.mutableContent = true
        let result = try await withSimulator(
            APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        ) { sim in
            let result = try await withProvider(sim, authentication: try tokenAuth(key).0) {
                try await $0.deliver(sent, to: sent.targets[0], attempt: 1)
            }
            let recorded = try #require(sim.recorder.notifications.first)
            #expect(
                recorded.payload.jsonString == """
                    {"aps":{"alert":{"title":"T","subtitle":"S","body":"B","title-loc-key":"TK","title-loc-args":["x"],"loc-key":"BK",\
                    "loc-args":["y"]},"badge":0,"sound":{"critical":1,"name":"alarm.caf","volume":0.5},"thread-id":"t-42",\
                    "category":"MESSAGE","mutable-content":1,"interruption-level":"time-sensitive","relevance-score":0.5,\
                    "target-content-id":"w1","url-args":["a"]},"image":"https://cdn.example.com/a.jpg","screen":"chat","n":42}
                    """)
            #expect(recorded.messageID == result.providerMessageID)
            #expect(sim.recorder.counters == ["apns.200": 1])
            return result
        }
        #expect(result.status == .delivered)
        #expect(result.providerStatus == 200)
        #expect(APNsID.isValid(result.providerMessageID ?? ""))
        #expect(result.latency != nil)
    }

    @Test func everyPushTypeIsAcceptedWithItsHeaders() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])) {
            sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider in
                for pushType in PushType.allCases {
                    var sent = event(pushType: pushType)
                    if pushType == .background {
                        sent = event(notification: nil, pushType: .background, contentAvailable: true)
                    }
                    if pushType == .liveactivity {
                        sent.apns = APNsOverrides(
                            payload: json(#"{"aps":{"event":"update","timestamp":1800000000,"content-state":{"s":1}}}"#)
                        )
                    }
                    let result = await deliver(provider, sent)
                    #expect((try? result.get())?.status == .delivered, "\(pushType)")
                }
            }
            let headers = sim.recorder.notifications.map { n in
                [
                    n.headers["apns-push-type"] ?? "-", n.headers["apns-topic"] ?? "-",
                    n.headers["apns-priority"] ?? "-",
                    n.headers["apns-expiration"] ?? "none",
                ].joined(separator: " ")
            }
            #expect(
                headers == [
                    "alert com.example.chat 10 none", "background com.example.chat 5 none",
                    "voip com.example.chat.voip 10 none",
                    "liveactivity com.example.chat.push-type.liveactivity 10 none",
                    "complication com.example.chat.complication 10 none",
                    "fileprovider com.example.chat.pushkit.fileprovider 10 none", "mdm com.example.chat 10 none",
                    "location com.example.chat.location-query 10 none", "pushtotalk com.example.chat.voip-ptt 10 0",
                    "widgets com.example.chat.push-type.widgets 10 none",
                ])
        }
    }

    @Test func deadTokenIsInvalidTokenWithInvalidatedAt() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        let since = Timestamp(millisecondsSinceEpoch: 1_790_000_000_250)
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], deadTokens: [dead: since])
        let result = try await withSimulator(configuration) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { await deliver($0, event(token: dead)) }
        }
        let delivered = try result.get()
        #expect(delivered.status == .invalidToken(invalidatedAt: since))
        #expect(delivered.reason == "Unregistered")
        #expect(delivered.providerStatus == 410)
    }

    @Test(arguments: [
        // (what is wrong, event change, expected status, reason)
        ("malformed token", "token", "invalid_token", "BadDeviceToken", 400),
        ("topic of another app", "bundle", "failed", "TopicDisallowed", 400),
        ("priority 10 on a background push", "background10", "failed", "BadPriority", 400),
        ("relative expiration", "expiration300", "failed", "BadExpirationDate", 400),
        ("apns-id not a UUID", "apnsid", "failed", "BadMessageId", 400),
        ("unknown push type", "pushtype", "failed", "InvalidPushType", 400),
    ])
    func rejectedRequestsMapToOutcomes(
        _ what: String, _ change: String, _ status: String, _ reason: String, _ http: Int
    ) async throws {
        let (key, simulatorKey) = try Fixtures.key()
        var sent = event()
        var bundleID = Fixtures.bundleID
        switch change {
        case "token": sent = event(token: "abc123")
        case "bundle": bundleID = "com.other.app"
        case "background10":
            sent = event(
                notification: nil, contentAvailable: true, apns: APNsOverrides(headers: ["apns-priority": "10"]))
        case "expiration300": sent.apns = APNsOverrides(headers: ["apns-expiration": "300"])
        case "apnsid": sent.apns = APNsOverrides(headers: ["apns-id": "42"])
        default: sent.apns = APNsOverrides(headers: ["apns-push-type": "bogus"])
        }
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        let result = try await withSimulator(configuration) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0, bundleID: bundleID) {
                await deliver($0, sent)
            }
        }
        let answered = try result.get()
        #expect(answered.reason == reason, "\(what)")
        #expect(answered.providerStatus == http, "\(what)")
        #expect(OutcomeBuilder.status(of: answered).rawValue == status, "\(what)")
    }

    @Test func payloadTooLargeFailsWithoutARequest() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider in
                let big = event(notification: .init(body: String(repeating: "x", count: 5000)))
                let error = #expect(throws: DeliveryRejection.self) { try provider.validate(big, for: big.targets[0]) }
                #expect(
                    error?.description
                        == "PayloadTooLarge: payload is 5029 bytes, over APNs' 4096-byte limit for alert pushes")
                #expect((try? await deliver(provider, big).get()) == DeliveryResult(.failed, reason: "PayloadTooLarge"))
            }
            #expect(sim.recorder.counters.isEmpty)
        }
    }

    @Test(arguments: [(500, "InternalServerError"), (503, "ServiceUnavailable"), (429, "TooManyRequests")])
    func injectedServerErrorsAreRetryableFailures(status: Int, reason: String) async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let faults = SimulatorFaults(errorRate: 1, errorStatus: status)
        let result = try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { await deliver($0, event()) }
        }
        guard case .failure(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.reason == reason)
        #expect(failure.providerStatus == status)
    }

    @Test func perTokenRateLimitIsARetryableTooManyRequests() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], perTokenLimit: 1, perTokenWindow: .seconds(60))
        try await withSimulator(configuration) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider in
                #expect((try? await deliver(provider, event()).get())?.status == .delivered)
                guard case .failure(let failure) = await deliver(provider, event()) else {
                    Issue.record("expected 429"); return
                }
                #expect(failure.description == "TooManyRequests (HTTP 429)")
            }
            #expect(sim.recorder.counters == ["apns.200": 1, "apns.429": 1])
        }
    }

    @Test func goAwayAfterTwoStreamsDoesNotLoseNotifications() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(
            APNsSimulatorConfiguration(keys: [simulatorKey]), faults: SimulatorFaults(goAwayAfterStreams: 2)
        ) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider in
                for index in 0..<5 {
                    let result = await deliver(provider, event())
                    if case .failure(let failure) = result {
                        // A stream refused by GOAWAY is retryable; the next attempt opens a new connection.
                        #expect(failure.reason.hasPrefix("connectionLost"), "send \(index): \(failure)")
                        #expect((try? await deliver(provider, event()).get())?.status == .delivered)
                    } else {
                        #expect((try? result.get())?.status == .delivered)
                    }
                }
            }
            #expect(sim.recorder.notifications.count == 5)
            // Two streams per connection: five notifications needed at least three connections.
            #expect(sim.simulator.connectionsSeen >= 3)
        }
    }

    @Test func injectedLatencyShowsInTheMeasuredLatency() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let faults = SimulatorFaults(latency: .init(milliseconds: 150))
        let result = try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { await deliver($0, event()) }
        }
        let latency = try #require(try result.get().latency)
        #expect(latency >= .milliseconds(150))
    }

    @Test func acceptedNotificationsAreAppendedToTheJSONLinesFile() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let directory = try makeTemporaryDirectory("sim")
        let file = directory + "/record.jsonl"
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), recordTo: file) { sim in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider in
                _ = await deliver(provider, event(data: json(#"{"k":"v"}"#)))
            }
        }
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let record = try JSONValue.parse(String(lines[0]))
        #expect(record["provider"] == "apns")
        #expect(record["target"]?.stringValue == Fixtures.token)
        #expect(record["payload"]?.jsonString == #"{"aps":{"alert":{"title":"Hi","body":"Hello"}},"k":"v"}"#)
    }
}
