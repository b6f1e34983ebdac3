import HeraldCore
import HeraldFCM
import HeraldSimulator
import Testing

/// Our provider and HTTP client against our HTTP/2 server and simulated FCM,
/// over real TLS: what FCM receives, and what comes back.
@Suite struct DeliveryTests {
    @Test func deliversEveryMessageFieldAndTheSimulatorRecordsIt() async throws {
        try await Harness.run { h async throws in
            let event = fcmEvent(
                .token("tok-e2e"), notification: MessageBuilderTests.fullNotification, data: ["screen": "chat"]
            ) {
                $0.expiry = .ttl(seconds: 600)
                $0.collapseID = "thread-42"
                $0.fcm = [
                    "android": ["notification": ["channel_id": "messages", "icon": "ic_chat", "color": "#3366ff"]],
                    "webpush": ["fcm_options": ["link": "https://chat.example.com/t/42"]],
                    "fcm_options": ["analytics_label": "chat"],
                ]
            }
            try h.provider.validate(event, for: event.targets[0])
            let result = try await h.provider.deliver(event, to: event.targets[0], attempt: 1)
            #expect(result.status == .delivered)
            #expect(result.providerStatus == 200)
            #expect(result.providerMessageID?.hasPrefix("projects/herald-test/messages/0:") == true)
            #expect(result.latency != nil)
            let recorded = try #require(h.recorder.notifications.first)
            #expect(recorded.provider == "fcm")
            #expect(recorded.target == "tok-e2e")
            #expect(recorded.messageID == result.providerMessageID)
            #expect(recorded.payload == .object(h.provider.message(for: event, to: event.targets[0]).object))
            #expect(recorded.payload["android"]?["notification"]?["channel_id"] == "messages")
            #expect(recorded.payload["webpush"]?["fcm_options"]?["link"] == "https://chat.example.com/t/42")
        }
    }

    @Test func nestedNumericAndBooleanDataArriveAsStrings() async throws {
        try await Harness.run { h async throws in
            let data = try #require(
                JSONValue.parse(#"{"n":42,"f":0.5,"b":false,"o":{"k":[1,true,null]},"s":"x"}"#).objectValue)
            let result = await h.send(fcmEvent(data: data))
            #expect(try result.get().status == .delivered)
            #expect(
                h.recorder.notifications.first?.payload["data"] == [
                    "n": "42", "f": "0.5", "b": "false", "o": #"{"k":[1,true,null]}"#, "s": "x",
                ])
        }
    }

    @Test func topicAndConditionTargetsAreDelivered() async throws {
        try await Harness.run { h async throws in
            #expect(
                try await h.send(fcmEvent(.topic("news"), notification: .init(title: "t"))).get().status == .delivered)
            #expect(
                try await h.send(fcmEvent(.condition("'news' in topics"), notification: .init(title: "t"))).get().status
                    == .delivered)
            #expect(h.recorder.notifications.map(\.target) == ["news", "'news' in topics"])
        }
    }

    @Test func latencyInjectedBySimulatorIsMeasured() async throws {
        try await Harness.run(fcm: FCMSimulatorSettings(projectIDs: [TestKeys.projectID], latency: .milliseconds(50))) {
            h async throws in
            let result = try await h.send(fcmEvent()).get()
            #expect(result.status == .delivered)
            #expect(try #require(result.latency) >= .milliseconds(50))
        }
    }
}
