import Glibc
import HeraldCore
@testable import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// The egress policy: the address classifier on hosts as URLs write them,
/// the textual parser against the C library's own, `allowed_hosts` matching,
/// and the connect-time check on a name that resolves to loopback.
@Suite struct EgressPolicyTests {
    private let policy = EgressPolicy.publicAddressesOnly

    @Test(arguments: [
        ("127.1", "127.0.0.0/8 loopback"),
        ("2130706433", "127.0.0.0/8 loopback"),
        ("0x7f.1", "127.0.0.0/8 loopback"),
        ("0177.0.0.1", "127.0.0.0/8 loopback"),
        ("127.0.0.1", "127.0.0.0/8 loopback"),
        ("[::ffff:7f00:1]", "127.0.0.1 in 127.0.0.0/8 loopback (RFC 1122), carried inside ::ffff:0:0/96"),
        ("[::ffff:127.0.0.1]", "carried inside ::ffff:0:0/96"),
        ("0.0.0.0", "0.0.0.0/8"),
        ("0", "0.0.0.0/8"),
        ("169.254.169.254", "169.254.0.0/16 link-local"),
        ("100.64.0.1", "100.64.0.0/10 shared address space"),
        ("10.1.2.3", "10.0.0.0/8 private-use"),
        ("172.31.255.255", "172.16.0.0/12 private-use"),
        ("192.168.1.1", "192.168.0.0/16 private-use"),
        ("192.0.0.8", "192.0.0.0/24"),
        ("192.0.2.1", "192.0.2.0/24 documentation"),
        ("198.19.0.1", "198.18.0.0/15 benchmarking"),
        ("198.51.100.7", "198.51.100.0/24"),
        ("203.0.113.9", "203.0.113.0/24"),
        ("224.0.0.251", "224.0.0.0/4 multicast"),
        ("240.0.0.1", "240.0.0.0/4 reserved"),
        ("255.255.255.255", "240.0.0.0/4 reserved"),
        ("[::]", "::/128 the unspecified address"),
        ("[::1]", "::1/128 loopback"),
        ("[::127.0.0.1]", "::/96 deprecated IPv4-compatible"),
        ("[fd00::1]", "fc00::/7 unique local"),
        ("[fc00::]", "fc00::/7 unique local"),
        ("[fe80::1]", "fe80::/10 link-local"),
        ("[fe80::1%25eth0]", "fe80::/10 link-local"),
        ("[fec0::1]", "fec0::/10 deprecated site-local"),
        ("[ff02::1]", "ff00::/8 multicast"),
        (
            "[64:ff9b::a9fe:a9fe]",
            "169.254.169.254 in 169.254.0.0/16 link-local (RFC 3927), carried inside 64:ff9b::/96"
        ),
        ("[64:ff9b:1::1]", "64:ff9b:1::/48 local-use NAT64"),
        ("[2002:7f00:1::]", "127.0.0.1 in 127.0.0.0/8 loopback (RFC 1122), carried inside 2002::/16 6to4"),
        ("[2002:a00:1::1]", "10.0.0.1 in 10.0.0.0/8"),
        ("[2001:db8::1]", "2001:db8::/32 documentation"),
        ("[2001::1]", "2001::/23 IETF protocol assignments"),
        ("[100::1]", "100::/64 discard-only"),
        ("[3fff::1]", "3fff::/20 documentation"),
        ("[4000::1]", "outside 2000::/3"),
    ])
    func refusedAddresses(host: String, rule: String) {
        let refusal = policy.refusal(forHost: host)
        #expect(refusal?.rule.contains(rule) == true, "\(host): \(refusal?.rule ?? "allowed")")
        #expect(EgressPolicy.unrestricted.refusal(forHost: host) == nil)
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "142.250.74.106", "17.253.144.10", "[2606:4700::1111]", "[2a00:1450:4001:830::200a]",
        "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "[2002:808:808::1]",
        // Names are judged at connect time, by the addresses they resolve to.
        "localhost", "fcm.googleapis.com", "0x7f.example", "127.0.0.1.nip.io",
    ])
    func allowedBeforeConnecting(host: String) {
        #expect(policy.refusal(forHost: host) == nil, "\(host)")
    }

    @Test func theUnspecifiedAddressIsNamedAsSuch() {
        #expect(
            policy.refusal(forHost: "0.0.0.0")?.rule
                == "the address 0.0.0.0 is not a public address: 0.0.0.0/8 \"this network\", the unspecified address included (RFC 791)"
        )
        #expect(
            policy.refusal(forHost: "[::ffff:169.254.169.254]")?.description
                == "EndpointNotAllowed: the address ::ffff:a9fe:a9fe is not a public address: 169.254.169.254 in 169.254.0.0/16 link-local (RFC 3927), carried inside ::ffff:0:0/96 IPv4-mapped addresses"
        )
    }

    /// The IPv6 parser reads what `inet_pton` reads, and nothing else; the
    /// IPv4 one what `inet_aton` reads (on inputs without spaces, which glibc's stops at).
    @Test(arguments: [
        "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1::8", "fe80::1",
        "::ffff:1.2.3.4",
        "::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "64:ff9b::169.254.169.254", "ABCD::EF", "0000:0000::0001",
        ":", ":::", "1:", ":1", "1:::2", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
        "12345::",
        "::1.2.3", "::1.2.3.4.5", "::01.2.3.4", "::256.1.1.1", "1.2.3.4::", "::1.2.3.4:5", "g::1",
        "1:2:3:4:5:6:7:1.2.3.4", "",
        "1::2:3:4:5:6:7:8",
    ])
    func ipv6ParsingMatchesInetPton(text: String) {
        var expected = in6_addr()
        let valid = inet_pton(AF_INET6, text, &expected) == 1
        let bytes = withUnsafeBytes(of: &expected) { Array($0) }
        let parsed = IPAddress.ipv6(Substring(text).utf8[...])
        #expect(parsed.map { IPAddress.v6($0) } == (valid ? IPAddress(bytes: bytes) : nil), "\(text)")
    }

    @Test(arguments: [
        "127.1", "2130706433", "0x7f.1", "0177.0.0.1", "0x7f.0.0.0x1", "1.2.3", "255.255.255.255", "4294967295",
        "4294967296",
        "1.2.3.4.5", "1.2.3.", ".1.2.3", "08", "0x", "0xg", "1..2", "256.1.1.1", "1.16777216", "1.16777215", "00",
        "0x0x1", "a.b",
    ])
    func ipv4ParsingMatchesInetAton(text: String) {
        var expected = in_addr()
        let valid = inet_aton(text, &expected) != 0
        let parsed = IPAddress(host: text)
        #expect(parsed == (valid ? IPAddress.v4(UInt32(bigEndian: expected.s_addr)) : nil), "\(text)")
    }

    @Test func addressesPrintAsRFC5952() {
        #expect(IPAddress(host: "[2001:0db8:0000:0000:0000:0000:0002:0001]")?.description == "2001:db8::2:1")
        #expect(IPAddress(host: "[1:0:0:2:0:0:0:3]")?.description == "1:0:0:2::3")
        #expect(IPAddress(host: "[1:0:2:3:4:5:6:7]")?.description == "1:0:2:3:4:5:6:7")
        #expect(IPAddress(host: "0x7f.1")?.description == "127.0.0.1")
    }

    @Test func allowedHostsMatchOnLabelBoundaries() {
        let hosts = AllowedHosts([
            "fcm.googleapis.com", "push.apple.com", "Notify.Windows.com.", "203.0.113.7", "[2606:4700::1111]",
        ])
        for host in [
            "fcm.googleapis.com", "FCM.googleapis.com", "push.apple.com", "web.push.apple.com", "a.b.push.apple.com",
            "wns2-par02p.notify.windows.com", "fcm.googleapis.com.", "203.0.113.7", "[2606:4700:0::1111]",
            "2606:4700::1111",
        ] {
            #expect(hosts.allows(host), "\(host)")
        }
        for host in [
            "evil-push.apple.com", "push.apple.com.evil.com", "apple.com", "xfcm.googleapis.com", "googleapis.com",
            "notify.windows.com.example", ".push.apple.com", "a..push.apple.com", "é.push.apple.com", "203.0.113.70",
            "3.0.113.7", "0.113.7", "[2606:4700::1112]", "", ".",
        ] {
            #expect(!hosts.allows(host), "\(host)")
        }
        #expect(AllowedHosts(["*"]).allows("anything.example"))
        #expect(AllowedHosts(["*"]).allows("[::1]"))
        #expect(!AllowedHosts([]).allows("fcm.googleapis.com"))
        // An entry that is part of an IP literal does not match it as a suffix.
        #expect(!AllowedHosts(["0.1"]).allows("127.0.0.1"))
    }

    @Test func allowedHostsEntriesAreChecked() {
        #expect(AllowedHosts.problem(with: "push.apple.com") == nil)
        #expect(AllowedHosts.problem(with: "*") == nil)
        #expect(AllowedHosts.problem(with: "127.0.0.1") == nil)
        #expect(AllowedHosts.problem(with: "[::1]") == nil)
        #expect(AllowedHosts.problem(with: "") == "is empty")
        for entry in [
            "*.push.apple.com", "https://push.apple.com", "push..apple.com", ".push.apple.com", "push.apple.com/x",
            "a b",
        ] {
            #expect(AllowedHosts.problem(with: entry) != nil, "\(entry)")
        }
    }

    @Test func aRefusalIsAFailedOutcomeWithItsOwnReason() throws {
        let error = HTTPClientError.egressRefused(
            host: "localhost:1",
            EgressRefusal(rule: "the address ::1 is not a public address: ::1/128 loopback (RFC 4291)"))
        #expect(!error.isRetryable)
        let result = try DeliveryResult.unanswered(error, latency: .zero)
        #expect(result.status == .failed)
        #expect(result.reason == "EndpointNotAllowed")
        #expect(result.detail == "the address ::1 is not a public address: ::1/128 loopback (RFC 4291)")
    }

    /// The connections a listener has taken in, accepted now without waiting (the kernel
    /// completes a handshake into the backlog whether or not the test accepts).
    private func connectionsMade(to listener: LoopbackListener) -> Int {
        _ = fcntl(listener.descriptor, F_SETFL, fcntl(listener.descriptor, F_GETFL) | O_NONBLOCK)
        var count = 0
        while true {
            let connection = accept(listener.descriptor, nil, nil)
            guard connection >= 0 else { return count }
            close(connection)
            count += 1
        }
    }

    /// `localhost` passes the check before the request (a name), and both
    /// engines refuse it on the addresses it resolves to, before any socket
    /// connects: what a name whose DNS answer changes to an internal address
    /// (DNS rebinding) meets.
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func aNameResolvingToLoopbackIsRefusedAtConnectTime(engine: HTTPClientConfiguration.Engine) async throws {
        let listener = try #require(LoopbackListener())
        #expect(policy.refusal(forHost: "localhost") == nil)
        var configuration = HTTPClientConfiguration(requestTimeout: .seconds(20), engine: engine)
        configuration.egress = .publicAddressesOnly
        let error = try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
            do {
                _ = try await client.send(
                    HTTPClientRequest(method: "POST", url: "https://localhost:\(listener.port)/push", body: [1]))
                return nil as HTTPClientError?
            } catch let error as HTTPClientError {
                return error
            }
        }
        let failure = try #require(error)
        #expect(failure.kind == .egressRefused, "\(failure)")
        #expect(failure.message.contains("loopback"), "\(failure.message)")
        #expect(failure.host == "localhost:\(listener.port)")
        #expect(connectionsMade(to: listener) == 0)
    }

    /// An IP literal in a refused block fails before the request starts; unrestricted, the same URL connects.
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func anIPLiteralIsRefusedBeforeTheRequest(engine: HTTPClientConfiguration.Engine) async throws {
        let listener = try #require(LoopbackListener())
        for (egress, refused) in [(EgressPolicy.publicAddressesOnly, true), (.unrestricted, false)] {
            var configuration = HTTPClientConfiguration(requestTimeout: .seconds(1), engine: engine)
            configuration.egress = egress
            let error = try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) {
                client in
                do {
                    _ = try await client.send(HTTPClientRequest(url: "https://0x7f.1:\(listener.port)/"))
                    return nil as HTTPClientError?
                } catch let error as HTTPClientError {
                    return error
                }
            }
            if refused {
                #expect(error?.kind == .egressRefused, "\(String(describing: error))")
                #expect(
                    error?.message == "the address 127.0.0.1 is not a public address: 127.0.0.0/8 loopback (RFC 1122)")
                #expect(connectionsMade(to: listener) == 0)
            } else {
                // The listener never answers: the request times out, but it did connect.
                #expect(error?.kind == .timeout, "\(String(describing: error))")
                #expect(connectionsMade(to: listener) == 1)
            }
        }
    }
}
