import HeraldCore
import Testing

/// What a debug trace may show of a request and its answer: no credential,
/// no whole device token, nothing over the bounds.
@Suite struct DebugRedactionTests {
    static let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEifQ.eyJpc3MiOiJURUFNIn0.c2lnbmF0dXJl"

    @Test func secretHeadersAreRedactedAndAuthorizationKeepsItsScheme() {
        let message = DebugRedaction.request(
            method: "POST", url: "https://api.push.apple.com/3/device/\(Self.token)",
            headers: [
                ("authorization", "bearer " + Self.jwt), ("Proxy-Authorization", "Basic dXNlcjpwYXNz"),
                ("x-goog-api-key", "AIzaSecret"), ("cookie", "session=s3cr3t"), ("apns-topic", "com.example.chat"),
            ],
            body: Array(#"{"aps":{"alert":"hi"}}"#.utf8), deviceAddress: Self.token)
        #expect(
            message.headers.map(\.value) == [
                "bearer [redacted]", "Basic [redacted]", "[redacted]", "[redacted]", "com.example.chat",
            ])
        #expect(message.url == "https://api.push.apple.com/3/device/a1b2c3d4…")
        #expect(message.method == "POST")
        #expect(message.body == #"{"aps":{"alert":"hi"}}"#)
        #expect(message.bodyBytes == 22)
        #expect(!message.bodyTruncated)
    }

    @Test func theDeviceTokenIsMaskedInBodiesAndHeadersAsLogsMaskIt() {
        let fcmToken = "fcm-token-of-a-phone-0123456789"
        let message = DebugRedaction.response(
            status: 400, headers: [("x-echo", "to \(fcmToken)")],
            body: Array(#"{"message":{"token":"\#(fcmToken)"},"again":"\#(fcmToken)"}"#.utf8), deviceAddress: fcmToken)
        let masked = LogValue.mask(token: fcmToken)
        #expect(masked == "fcm-toke…")
        #expect(message.body == #"{"message":{"token":"\#(masked)"},"again":"\#(masked)"}"#)
        #expect(message.headers.first?.value == "to \(masked)")
        #expect(message.status == 400)
    }

    @Test func aPasswordInAURLIsHidden() {
        #expect(
            DebugRedaction.text("https://user:hunter2@proxy.example/x", deviceAddress: nil)
                == "https://user:***@proxy.example/x")
    }

    @Test func aHugeBodyIsCutWithinTheBoundAndMarkedTruncated() {
        // Two-byte characters, so the cut must fall on a character boundary.
        let body = Array(String(repeating: "é", count: 50_000).utf8)
        let message = DebugRedaction.response(
            status: 200, headers: [("x-big", String(repeating: "v", count: 5000))],
            body: body, deviceAddress: nil)
        #expect(message.body.utf8.count <= DebugRedaction.maxBodyBytes)
        #expect(message.body.utf8.count >= DebugRedaction.maxBodyBytes - 1)
        #expect(message.body.allSatisfy { $0 == "é" })
        #expect(message.bodyTruncated)
        #expect(message.bodyBytes == 100_000)
        #expect(message.headers.first?.value.utf8.count == DebugRedaction.maxHeaderValueBytes)
    }

    @Test func aTokenIsMaskedBeforeTheBodyIsCut() {
        // The token straddles the cut: masking first leaves no part of it beyond its masked prefix.
        let padding = String(repeating: "x", count: DebugRedaction.maxBodyBytes - 20)
        let message = DebugRedaction.request(
            method: "POST", url: "https://h/", headers: [],
            body: Array((padding + Self.token).utf8), deviceAddress: Self.token)
        #expect(message.body == padding + "a1b2c3d4…")
        #expect(!message.bodyTruncated)
    }

    @Test func theRecorderKeepsTimingsAndAtMostTheBoundOfExchanges() throws {
        let recorder = DeliveryTraceRecorder(target: Target(provider: .apns, address: .token(Self.token)))
        let first = recorder.sent(
            method: "POST", url: "https://h/3/device/\(Self.token)",
            headers: [("authorization", "bearer " + Self.jwt)], body: [])
        recorder.answered(first, status: 200, headers: [("apns-id", "id-1")], body: [])
        for _ in 1...DebugRedaction.maxExchanges + 2 {
            let index = recorder.sent(method: "POST", url: "https://h/", headers: [], body: [])
            recorder.failed(index, error: "timeout: no answer")
        }
        let trace = recorder.trace
        #expect(trace.exchanges.count == DebugRedaction.maxExchanges)
        #expect(trace.omittedExchanges == 3)
        let exchange = trace.exchanges[0]
        #expect(exchange.response?.status == 200)
        #expect(exchange.response?.headers.first?.value == "id-1")
        #expect(exchange.request.headers.first?.value == "bearer [redacted]")
        #expect(exchange.request.url == "https://h/3/device/a1b2c3d4…")
        #expect(try #require(exchange.answeredMs) >= exchange.sentMs)
        #expect(trace.exchanges[1].error == "timeout: no answer")
        #expect(trace.exchanges[1].response == nil)
    }
}
