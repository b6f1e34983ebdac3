@testable import HeraldObservability
import Testing

@Suite struct MetricsRegistryTests {
    @Test func countersGaugesAndHistogramsRenderInTheTextFormat() {
        let registry = MetricsRegistry()
        let notifications = registry.counter(
            "herald_notifications_total", help: "Notifications by outcome.",
            labels: ["provider", "app", "status"])
        notifications.labels("fcm", "chat", "delivered").increment(by: 3)
        notifications.labels("apns", "chat", "invalid_token").increment()
        registry.gauge("herald_amqp_connected", help: "1 when connected to the broker.").labels().set(true)
        let latency = registry.histogram(
            "herald_provider_request_duration_seconds", help: "Provider request time.",
            labels: ["provider"], buckets: [0.01, 0.1, 1])
        latency.labels("apns").observe(0.005)
        latency.labels("apns").observe(0.05)
        latency.labels("apns").observe(5)
        #expect(
            registry.render() == """
                # HELP herald_notifications_total Notifications by outcome.
                # TYPE herald_notifications_total counter
                herald_notifications_total{provider="apns",app="chat",status="invalid_token"} 1
                herald_notifications_total{provider="fcm",app="chat",status="delivered"} 3
                # HELP herald_amqp_connected 1 when connected to the broker.
                # TYPE herald_amqp_connected gauge
                herald_amqp_connected 1
                # HELP herald_provider_request_duration_seconds Provider request time.
                # TYPE herald_provider_request_duration_seconds histogram
                herald_provider_request_duration_seconds_bucket{provider="apns",le="0.01"} 1
                herald_provider_request_duration_seconds_bucket{provider="apns",le="0.1"} 2
                herald_provider_request_duration_seconds_bucket{provider="apns",le="1"} 2
                herald_provider_request_duration_seconds_bucket{provider="apns",le="+Inf"} 3
                herald_provider_request_duration_seconds_sum{provider="apns"} 5.055
                herald_provider_request_duration_seconds_count{provider="apns"} 3

                """)
    }

    @Test func labelValuesAreEscaped() {
        let registry = MetricsRegistry()
        registry.counter("x_total", help: "a \\ help\nline", labels: ["reason"]).labels("say \"hi\"\\\n").increment()
        #expect(
            registry.render() == """
                # HELP x_total a \\\\ help\\nline
                # TYPE x_total counter
                x_total{reason="say \\"hi\\"\\\\\\n"} 1

                """)
    }

    @Test func seriesAreSharedAcrossLookupsAndThreads() async {
        let registry = MetricsRegistry()
        let family = registry.counter("c_total", help: "c", labels: ["k"])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1000 { family.labels("a").increment() } }
            }
        }
        #expect(family.labels("a").current == 8000)
    }

    @Test func readinessNeedsEveryCondition() {
        let health = HealthState()
        #expect(!health.isReady)
        #expect(health.report == "starting\n")
        health.set("amqp_connected", true)
        health.set("consumer_active", false)
        #expect(!health.isReady)
        #expect(health.report == "amqp_connected ok\nconsumer_active FAILING\n")
        health.set("consumer_active", true)
        #expect(health.isReady)
        health.set("amqp_connected", true, detail: "10.0.0.7:5672")
        #expect(health.report == "amqp_connected ok 10.0.0.7:5672\nconsumer_active ok\n", "a detail follows the state")
        health.set("amqp_connected", false)
        #expect(health.report == "amqp_connected FAILING\nconsumer_active ok\n", "and is replaced with it")
    }
}
