import Foundation
import HeraldObservability
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
        let counter = metrics.counter("herald_notifications_total", help: "Notifications by outcome.", labels: ["provider", "app", "status"])
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
        let python = try await runTool("/usr/bin/python3", ["-c", parser], input: Data(scraped.body.utf8))
        let (status, parsed) = (python.status, python.output)
        #expect(status == 0, "prometheus_client could not parse /metrics: \(parsed)")
        #expect(parsed.contains("counter herald_notifications_total [('app', 'chat'), ('provider', 'apns'), ('status', 'delivered')] 7.0"))
        #expect(parsed.contains("histogram herald_provider_request_duration_seconds_bucket [('le', '0.025'), ('provider', 'fcm')] 1.0"))
        #expect(parsed.contains("histogram herald_provider_request_duration_seconds_count [('provider', 'fcm')] 1.0"))
    }

    @Test func onlyGETAndHEADAreServed() async throws {
        let server = try ObservabilityServer(host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { server.close() }
        let output = try await runTool("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-d", "x",
                                                         "http://127.0.0.1:\(server.port)/metrics"]).output
        #expect(output == "405")
    }

    @Test func aBusyPortIsAClearError() throws {
        let first = try ObservabilityServer(host: "127.0.0.1", port: 0, metrics: MetricsRegistry(), health: HealthState())
        defer { first.close() }
        do {
            _ = try ObservabilityServer(host: "127.0.0.1", port: first.port, metrics: MetricsRegistry(), health: HealthState())
            Issue.record("a second server bound the same port")
        } catch {
            #expect(error.message.hasPrefix("cannot listen on 127.0.0.1:\(first.port): "), "\(error)")
        }
        #expect(throws: ObservabilityError("cannot resolve listen host 'no-such-host.invalid'")) {
            try ObservabilityServer(host: "no-such-host.invalid", port: 0, metrics: MetricsRegistry(), health: HealthState())
        }
    }
}
