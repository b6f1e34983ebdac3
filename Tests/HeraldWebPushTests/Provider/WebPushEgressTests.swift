import HeraldCore
import HeraldCrypto
import HeraldHTTPClient
import HeraldWebPush
import Testing

/// Where a Web Push message may go, as the provider checks it before any
/// request: `allowed_hosts` (the browsers' push services by default) and an
/// IP literal the egress policy refuses; and how the settings map onto both.
@Suite struct WebPushEgressTests {
    private func configuration(allowedHosts: [String]? = nil, unsafe: Bool = false) throws
        -> WebPushProviderConfiguration
    {
        let key = try PrivateKey.generateP256()
        let settings = WebPushSettings(
            vapid: .init(privateKeyPEM: try key.pkcs8PEM(), subject: "mailto:ops@example.com"),
            allowedHosts: allowedHosts, unsafeAllowInternalAddresses: unsafe)
        return try settings.providerConfiguration(resolve: { $0 })
    }

    private func subscription(_ endpoint: String) throws -> WebPushSubscription {
        let browser = try PrivateKey.generateP256()
        return try WebPushSubscription(
            endpoint: endpoint, p256dh: try browser.publicKey.uncompressedP256(),
            authSecret: [UInt8](repeating: 7, count: 16))
    }

    @Test func theDefaultAllowsTheBrowsersPushServicesOnly() throws {
        let config = try configuration()
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
            "https://web.push.apple.com/QGuQ", "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
            "https://FCM.googleapis.com/wp/x",
        ] {
            #expect(config.refusal(for: try subscription(endpoint)) == nil, "\(endpoint)")
        }
        #expect(
            config.refusal(for: try subscription("https://evil-push.apple.com/x"))?.rule
                == "the host evil-push.apple.com is not in allowed_hosts (fcm.googleapis.com, updates.push.services.mozilla.com, push.apple.com, notify.windows.com)"
        )
        #expect(config.refusal(for: try subscription("https://push.apple.com.evil.example/x")) != nil)
        #expect(
            config.refusal(for: try subscription("https://localhost:8080/x"))?.rule.hasPrefix(
                "the host localhost is not in allowed_hosts") == true)
        // An IP literal is named for its address block, which says more than the list does.
        #expect(
            config.refusal(for: try subscription("https://169.254.169.254/latest/meta-data"))?.rule
                == "the address 169.254.169.254 is not a public address: 169.254.0.0/16 link-local (RFC 3927)")
    }

    @Test func aStarLeavesTheAddressRuleAndTheOptInLeavesNeither() throws {
        let any = try configuration(allowedHosts: ["*"])
        #expect(any.refusal(for: try subscription("https://push.example.net/x")) == nil)
        #expect(
            any.refusal(for: try subscription("https://[fd00::1]/x"))?.rule.contains("fc00::/7 unique local") == true)
        #expect(
            any.refusal(for: try subscription("https://2130706433/x"))?.rule.contains("127.0.0.0/8 loopback") == true)
        #expect(any.egress == .publicAddressesOnly)
        let simulator = try configuration(allowedHosts: ["127.0.0.1"], unsafe: true)
        #expect(simulator.refusal(for: try subscription("https://127.0.0.1:2197/push/a")) == nil)
        #expect(
            simulator.refusal(for: try subscription("https://10.0.0.1/push/a"))?.rule.contains("not in allowed_hosts")
                == true)
        #expect(simulator.egress == .unrestricted)
    }

    @Test func theHTTPClientGetsThePolicy() throws {
        let vapid = WebPushSettings.VAPID(
            privateKey: String(repeating: "A", count: 43), subject: "mailto:ops@example.com")
        #expect(WebPushSettings(vapid: vapid).httpClientConfiguration(resolve: { $0 }).egress == .publicAddressesOnly)
        #expect(
            WebPushSettings(vapid: vapid, unsafeAllowInternalAddresses: true).httpClientConfiguration(resolve: { $0 })
                .egress == .unrestricted)
    }

    @Test func aRefusalIsFailedWithEndpointNotAllowed() throws {
        let result = DeliveryResult.refused(
            EgressRefusal(rule: "the host a.example is not in allowed_hosts (push.apple.com)"))
        #expect(result.status == .failed)
        #expect(result.reason == "EndpointNotAllowed")
        #expect(result.detail == "the host a.example is not in allowed_hosts (push.apple.com)")
    }
}
