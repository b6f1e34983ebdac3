import HeraldCore
import HeraldFCM
import Testing

/// A traced FCM send records the request as it went to FCM (its access token
/// redacted, the registration token masked) and FCM's answer; an untraced one records nothing.
@Suite struct FCMDebugTraceTests {
    static let token = "fcm-registration-token-0123456789"

    @Test func aTracedSendRecordsTheRequestAsSentAndTheAnswer() async throws {
        try await Harness.run { h async throws in
            let event = fcmEvent(.token(Self.token), notification: .init(title: "Traced"))
            var notification = try h.provider.prepare(event, for: event.targets[0])
            let recorder = DeliveryTraceRecorder(target: event.targets[0])
            notification.trace = recorder
            let result = try await h.provider.send(notification, attempt: 1)
            #expect(result.status == .delivered)
            // The cached access token is the one the send used.
            let accessToken = try await h.provider.accessToken().value
            let trace = recorder.trace
            #expect(trace.exchanges.count == 1)
            let exchange = try #require(trace.exchanges.first)
            #expect(exchange.request.method == "POST")
            #expect(exchange.request.url == h.provider.sendURL)
            #expect(exchange.request.headers.first { $0.name == "authorization" }?.value == "Bearer [redacted]")
            #expect(exchange.request.body.contains(#""token":"fcm-regi…""#))
            #expect(exchange.request.body.contains(#""title":"Traced""#))
            #expect(exchange.response?.status == 200)
            #expect(exchange.response?.body.contains(try #require(result.providerMessageID)) == true)
            #expect(try #require(exchange.answeredMs) >= exchange.sentMs)
            let everything = "\(trace)"
            #expect(!everything.contains(accessToken))
            #expect(!everything.contains(Self.token))
        }
    }

    @Test func anUntracedSendRecordsNothing() async throws {
        try await Harness.run { h async throws in
            let event = fcmEvent(.token(Self.token))
            let notification = try h.provider.prepare(event, for: event.targets[0])
            #expect(notification.trace == nil)
            #expect(try await h.provider.send(notification, attempt: 1).status == .delivered)
        }
    }
}
