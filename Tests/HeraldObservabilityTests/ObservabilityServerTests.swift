import Foundation
@testable import HeraldObservability
import HeraldTestSupport
import Testing

/// Scrapes the real endpoint over HTTP with curl, and parses /metrics with
/// Prometheus' own Python client parser (Debian's python3-prometheus-client).
@Suite struct ObservabilityServerTests {
    func curl(_ url: String) async throws -> (status: String, body: String) {
        let output = try await runTool("/usr/bin/curl", ["-s", "-w", "\n%{http_code}", url]).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func servesHealthReadinessAndMetricsThatPrometheusParses() async throws {
        let metrics = MetricsRegistry()
        let health = HealthState()
        let counter = metrics.counter(
            "herald_notifications_total", help: "Notifications by outcome.", labels: ["provider", "app", "status"])
        counter.labels("apns", "chat", "delivered").increment(by: 7)
        metrics.histogram("herald_provider_request_duration_seconds", help: "Provider latency.", labels: ["provider"])
            .labels("fcm").observe(0.012)
        let server = try ObservabilityServer(host: "127.0.0.1", port: 0, metrics: metrics, health: health)
        defer { server.close() }
        #expect(server.port > 0)
        let base = "http://127.0.0.1:\(server.port)"

        #expect(try await curl(base + "/healthz") == ("200", "ok\n"))
        #expect(try await curl(base + "/readyz") == ("503", "starting\n"))
        health.set("amqp_connected", true)
        #expect(try await curl(base + "/readyz") == ("200", "amqp_connected ok\n"))
        #expect(try await curl(base + "/nope").status == "404")

        let scraped = try await curl(base + "/metrics")
        #expect(scraped.status == "200")
        let parser = """
            import sys
            from prometheus_client.parser import text_string_to_metric_families
            for family in text_string_to_metric_families(sys.stdin.read()):
                for s in family.samples:
                    print(family.type, s.name, sorted(s.labels.items()), s.value)
            """
        let python = try await runTool("/usr/bin/python3", ["-c", parser], input: Array(scraped.body.utf8))
        let (status, parsed) = (python.status, python.output)
        #expect(status == 0, "prometheus_client could not parse /metrics: \(parsed)")
        #expect(
            parsed.contains(
                "counter herald_notifications_total [('app', 'chat'), ('provider', 'apns'), ('status', 'delivered')] 7.0"
            ))
        #expect(
            parsed.contains(
                "histogram herald_provider_request_duration_seconds_bucket [('le', '0.025'), ('provider', 'fcm')] 1.0"))
        #expect(parsed.contains("histogram herald_provider_request_duration_seconds_count [('provider', 'fcm')] 1.0"))
    }

    @Test func onlyGETAndHEADAreServed() async throws {
        let server = try ObservabilityServer(
            host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { server.close() }
        let output = try await runTool(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-d", "x",
                "http://127.0.0.1:\(server.port)/metrics",
            ]
        ).output
        #expect(output == "405")
    }

    @Test func aBusyPortIsAClearError() throws {
        let first = try ObservabilityServer(
            host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { first.close() }
        do {
            _ = try ObservabilityServer(
                host: "127.0.0.1", port: first.port, metrics: MetricsRegistry(), health: HealthState())
            Issue.record("a second server bound the same port")
        } catch {
            #expect(error.message.hasPrefix("cannot listen on 127.0.0.1:\(first.port): "), "\(error)")
        }
        #expect(throws: ObservabilityError("cannot resolve listen host 'no-such-host.invalid'")) {
            try ObservabilityServer(
                host: "no-such-host.invalid", port: 0, metrics: MetricsRegistry(), health: HealthState())
        }
    }
}

/// The listener under abuse: idle and slow connections from one address must
/// not keep probes from another address from being answered, and what is over
/// the limits is closed.
@Suite struct ObservabilityListenerLimitTests {
    func probe(_ url: String, from source: String? = nil) async throws -> String {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "1"]
        if let source { arguments += ["--interface", source] }
        return try await runTool("/usr/bin/curl", arguments + [url]).output
    }

    @Test func idleAndSlowConnectionsDoNotStarveHealthProbes() async throws {
        // libmicrohttpd counts idleness in whole seconds, so a 5 s timeout may close after 4 s: the
        // connections below must be opened and checked well within that on a loaded machine.
        // Loopback counts here like any address (the test has no other): the per-address limit at work.
        let limits = ObservabilityServer.Limits(exemptsLoopback: false, idleTimeout: .seconds(5))
        let server = try ObservabilityServer(
            host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState(), limits: limits)
        defer { server.close() }
        // 100 silent connections and 5 that send half a request line, a byte at a time, all from 127.0.0.1.
        var idle: [RawTCPClient] = []
        for _ in 0..<100 { idle.append(try RawTCPClient(host: "127.0.0.1", port: server.port)) }
        var slow: [RawTCPClient] = []
        for _ in 0..<5 {
            let client = try RawTCPClient(host: "127.0.0.1", port: server.port)
            client.send("GET /hea")
            slow.append(client)
        }
        // What is over the per-address limit is closed at once; the rest stay open. Watched from a
        // thread of its own until the refused ones are seen closed: resuming after `Task.sleep` can
        // take seconds when other suites hold the cooperative threads, and past the idle timeout
        // every connection would be closed.
        let clients = idle + slow
        let closedAtOnce = await onOwnThread {
            var closed = Set<Int>()
            let started = ContinuousClock.now
            repeat {
                for (index, client) in clients.enumerated() where !closed.contains(index) {
                    if client.receive(timeout: .zero) == .closed { closed.insert(index) }
                }
                if closed.count >= 105 - limits.maxConnectionsPerIP { break }
                usleep(10_000)
            } while ContinuousClock.now - started < .seconds(3)
            return closed.count
        }
        #expect(closedAtOnce >= 105 - limits.maxConnectionsPerIP, "closed at once: \(closedAtOnce)")
        #expect(closedAtOnce < 105, "every connection was closed: the limit held none")

        // Another address (a kubelet, Prometheus) is answered promptly, again and again.
        for round in 0..<12 {
            for client in slow { client.send("l") }
            let status = try await probe("http://127.0.0.1:\(server.port)/healthz", from: "127.0.0.2")
            #expect(status == "200", "probe \(round) answered '\(status)'")
        }
        // The held connections are closed once idle for the timeout; dripping bytes does not help a request
        // past the header limit, and 5 s after the last byte the slow ones are idle too.
        let outlived = await onOwnThread { clients.filter { !$0.readUntilClosed(timeout: .seconds(10)).closed }.count }
        #expect(outlived == 0, "connections that outlived the idle timeout")
        #expect(try await probe("http://127.0.0.1:\(server.port)/healthz") == "200")
    }

    /// A probe on this machine shares 127.0.0.1 with every other local
    /// client: loopback is exempt from the per-address limit, so idle
    /// connections from it do not keep the probe out.
    @Test func aLocalProbeIsAnsweredWhileIdleConnectionsFromItsOwnAddressExceedThePerAddressLimit() async throws {
        let limits = ObservabilityServer.Limits()
        let server = try ObservabilityServer(
            host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState(), limits: limits)
        defer { server.close() }
        let idle = try (0..<(limits.maxConnectionsPerIP + 4)).map { _ in
            try RawTCPClient(host: "127.0.0.1", port: server.port)
        }
        // A refused connection would be closed at once; these stay open.
        let closed = await onOwnThread { idle.filter { $0.receive(timeout: .milliseconds(100)) == .closed }.count }
        #expect(closed == 0, "idle loopback connections closed at once: \(closed)")
        for round in 0..<3 {
            #expect(try await probe("http://127.0.0.1:\(server.port)/healthz") == "200", "probe \(round)")
        }
        withExtendedLifetime(idle) {}
    }

    @Test func aRequestHeadOverTheLimitIsRefused() async throws {
        let server = try ObservabilityServer(
            host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { server.close() }
        let client = try RawTCPClient(host: "127.0.0.1", port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n")
        let (bytes, closed) = client.readUntilClosed(timeout: .seconds(3))
        let answer = String(decoding: bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(80))")
        #expect(closed)
    }

    @Test func limitsOutOfRangeAreNamed() {
        #expect(throws: ObservabilityError("maxConnectionsPerIP must be 1 to maxConnections (256), found 0")) {
            try ObservabilityServer(
                host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState(),
                limits: .init(maxConnectionsPerIP: 0))
        }
        #expect(throws: ObservabilityError("idleTimeout must be 1s to 24h, found 0.5 seconds")) {
            try ObservabilityServer(
                host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState(),
                limits: .init(idleTimeout: .milliseconds(500)))
        }
    }

    /// docs/configuration.md documents `[::1]:9464`; `::` serves both families.
    @Test(.enabled(if: hasIPv6Loopback(), "this machine has no IPv6 loopback (::1)"))
    func listensOnIPv6() async throws {
        for host in ["::1", "[::1]"] {
            let server = try ObservabilityServer(host: host, port: 0, metrics: MetricsRegistry(), health: HealthState())
            defer { server.close() }
            #expect(try await probe("http://[::1]:\(server.port)/healthz") == "200", "\(host)")
        }
        let both = try ObservabilityServer(host: "::", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { both.close() }
        #expect(try await probe("http://[::1]:\(both.port)/healthz") == "200")
        #expect(try await probe("http://127.0.0.1:\(both.port)/healthz") == "200")
    }
}

/// The per-address count behind the listener's limit.
@Suite struct ConnectionsPerAddressTests {
    @Test func anAddressHoldsAtMostTheLimitAndLoopbackIsExempt() {
        let connections = ConnectionsPerAddress(limit: 2, exemptsLoopback: true)
        let remote = ConnectionsPerAddress.Address(bytes: [10, 0, 0, 1])
        #expect(connections.admit(remote) && connections.admit(remote))
        #expect(!connections.admit(remote), "a third from one address is refused")
        #expect(connections.admit(.init(bytes: [10, 0, 0, 2])), "another address has its own count")
        connections.release(remote)
        #expect(connections.open(from: remote) == 1)
        #expect(connections.admit(remote), "a closed connection makes room")
        for loopback in [[127, 0, 0, 1], [127, 1, 2, 3], Array(repeating: 0, count: 15) + [1]] as [[UInt8]] {
            let address = ConnectionsPerAddress.Address(bytes: loopback)
            #expect(address.isLoopback)
            #expect((0..<10).allSatisfy { _ in connections.admit(address) }, "\(loopback) is not counted")
            #expect(connections.open(from: address) == 0)
        }
        let counted = ConnectionsPerAddress(limit: 1, exemptsLoopback: false)
        let local = ConnectionsPerAddress.Address(bytes: [127, 0, 0, 1])
        #expect(counted.admit(local) && !counted.admit(local), "without the exemption loopback counts too")
    }

    @Test func anIPv4MappedAddressCountsAsItsIPv4Address() throws {
        var v6 = sockaddr_in6()
        v6.sin6_family = sa_family_t(AF_INET6)
        withUnsafeMutableBytes(of: &v6.sin6_addr) { bytes in
            for (index, byte) in ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1] as [UInt8]).enumerated() {
                bytes[index] = byte
            }
        }
        let address = try #require(
            withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ConnectionsPerAddress.Address($0) }
            })
        #expect(address.bytes == [127, 0, 0, 1] && address.isLoopback)
    }
}
