import HeraldAPNs
import HeraldCore
import HeraldSimulator
import Testing

/// A traced APNs send records the request as it went to Apple — path,
/// `apns-*` headers, payload — with the provider token (JWT) redacted and the
/// device token masked, and Apple's answer with its `apns-id`.
@Suite struct ProviderDebugTraceTests {
    @Test func aTracedSendRecordsTheRequestAsSentWithoutTheProviderToken() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        try await withSimulator(
            APNsSimulatorConfiguration(
                keys: [simulatorKey], bundleIDs: [Fixtures.bundleID],
                deadTokens: [dead: Timestamp(seconds: 1_796_032_800)])
        ) { sim in
            let (authentication, manager) = try tokenAuth(key)
            try await withProvider(sim, authentication: authentication) { provider in
                for (token, status) in [(Fixtures.token, 200), (dead, 410)] {
                    let sent = event(token: token)
                    var notification = try provider.prepare(sent, for: sent.targets[0])
                    let recorder = DeliveryTraceRecorder(target: sent.targets[0])
                    notification.trace = recorder
                    let result = try await provider.send(notification, attempt: 1)
                    let jwt = try manager.token()
                    let trace = recorder.trace
                    #expect(trace.exchanges.count == 1)
                    let exchange = try #require(trace.exchanges.first)
                    let request = exchange.request
                    #expect(request.method == "POST")
                    #expect(request.url == sim.baseURL + "/3/device/" + LogValue.mask(token: token))
                    #expect(request.headers.first { $0.name == "authorization" }?.value == "bearer [redacted]")
                    #expect(request.headers.first { $0.name == "apns-topic" }?.value == Fixtures.bundleID)
                    #expect(request.headers.first { $0.name == "apns-push-type" }?.value == "alert")
                    #expect(request.body.contains(#""title":"Hi""#))
                    #expect(exchange.response?.status == status)
                    #expect(
                        exchange.response?.headers.first { $0.name == "apns-id" }?.value == result.providerMessageID)
                    if status == 410 { #expect(exchange.response?.body.contains("Unregistered") == true) }
                    let everything = "\(trace)"
                    #expect(!everything.contains(jwt))
                    #expect(!everything.contains(token))
                }
            }
        }
    }
}
