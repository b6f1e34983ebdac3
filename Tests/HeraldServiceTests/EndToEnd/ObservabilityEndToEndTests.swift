import Foundation
import HeraldCore
import HeraldService
import HeraldTestSupport
import Testing

/// What an SRE and an upstream team see of a running service: metrics parsed
/// by Prometheus' own parser, outcomes valid against the published JSON
/// Schema, and logs that name the failure without leaking tokens.
@Suite(.serialized) struct ObservabilityEndToEndTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test func metricsOutcomesAndLogsOfARunningService() async throws {
        let dead = String(repeating: "dd", count: 32)
        let simulator = try await SimulatorHarness(deadAPNsTokens: [dead])
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
        try await publisher.publish(
            #"{"id": "m1", "app": "chat", "targets": [{"provider": "fcm", "token": "f1"}, {"provider": "apns", "token": "\#(dead)"}], "notification": {"title": "x"}, "context": {"k": "v"}}"#
        )
        try await publisher.publish(#"{"id": "m2", "app": "chat", "provider": "fcm", "topic": "news", "ttl": 60}"#)
        try await publisher.publish("garbage", messageID: "m3")
        #expect(await results.wait { $0.count == 4 })

        // 1. /metrics, parsed by prometheus_client.
        let port = try #require(running.service.metricsPort)
        // Outcomes reach the results queue a moment before the event is acked and
        // counted; the connection gauges follow the connection within 200 ms.
        var scraped = ""
        _ = try await eventually(timeout: .seconds(60), every: .milliseconds(50)) {
            scraped = try await runTool("/usr/bin/curl", ["-s", "http://127.0.0.1:\(port)/metrics"]).output
            return scraped.contains("herald_event_duration_seconds_count 3\n")
                && scraped.contains("herald_inflight_events 0\n")
                && scraped.contains("herald_amqp_connected 1\n")
        }
        let parser = """
            import sys
            from prometheus_client.parser import text_string_to_metric_families
            for family in text_string_to_metric_families(sys.stdin.read()):
                for s in family.samples:
                    labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
                    print(f"{s.name}{{{labels}}} {s.value}")
            """
        let parsed = try await runTool("/usr/bin/python3", ["-c", parser], input: Array(scraped.utf8))
        let (status, samples) = (parsed.status, parsed.output)
        #expect(status == 0, "prometheus_client could not parse /metrics: \(samples)")
        let metricsDoc = try String(contentsOfFile: Self.repositoryRoot + "/docs/metrics.md", encoding: .utf8)
        MetricsDocumentation.expectAgreement(scrape: scraped, markdown: metricsDoc)
        #expect(samples.contains("process_resident_memory_bytes{} "), "no process_resident_memory_bytes in \(samples)")
        #expect(samples.contains("process_open_fds{} "))
        for line in [
            "herald_notifications_total{app=chat,provider=fcm,status=delivered} 2.0",
            "herald_notifications_total{app=chat,provider=apns,status=invalid_token} 1.0",
            "herald_notifications_total{app=unknown,provider=unknown,status=rejected} 1.0",
            "herald_events_consumed_total{routing_key_class=chat} 3.0",
            "herald_dead_lettered_total{reason=rejected} 1.0",
            "herald_amqp_connected{} 1.0",
            "herald_amqp_node{node=127.0.0.1:5672} 1.0",
            "herald_consumer_active{} 1.0",
            "herald_provider_request_duration_seconds_count{provider=fcm} 2.0",
            "herald_event_duration_seconds_count{} 3.0",
            "herald_inflight_events{} 0.0",
            "herald_build_info{version=\(HeraldVersion.current)} 1.0",
            "herald_token_refreshes_total{provider=fcm,result=success} 1.0",
            "herald_token_refreshes_total{provider=apns,result=success} 1.0",
            "herald_outcomes_published_total{status=delivered} 2.0",
        ] {
            #expect(samples.contains(line + "\n"), "missing \(line)")
        }
        let ready = try await runTool("/usr/bin/curl", ["-s", "http://127.0.0.1:\(port)/readyz"]).output
        #expect(ready == "amqp_connected ok 127.0.0.1:5672\nconsumer_active ok\n", "the report names the broker node")

        // 2. Every published outcome validates against schemas/outcome.schema.json.
        let validator = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            errors = 0
            for line in sys.stdin:
                for e in Draft202012Validator(schema).iter_errors(json.loads(line)):
                    errors += 1
                    print(line.strip(), "->", e.message)
            sys.exit(1 if errors else 0)
            """
        let lines = results.rawBodies.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
        let validation = try await runTool(
            "/usr/bin/python3", ["-c", validator, Self.repositoryRoot + "/schemas/outcome.schema.json"],
            input: Array(lines.utf8))
        let (valid, report) = (validation.status, validation.output)
        #expect(valid == 0, "outcomes do not match the schema: \(report)")

        // 3. One log line per failure, with the event, app, provider, reason and a masked token.
        let failure = try #require(running.logs.lines.first { $0.contains(#""event_id":"m1""#) })
        #expect(failure.contains(#""msg":"notification not delivered""#))
        #expect(failure.contains(#""provider":"apns""#) && failure.contains(#""app":"chat""#))
        #expect(failure.contains(#""reason":"Unregistered""#))
        #expect(failure.contains(#""token":"dddddddd…""#))
        #expect(running.logs.lines.allSatisfy { !$0.contains(dead) }, "a full device token reached the logs")
        #expect(
            running.logs.lines.allSatisfy { !$0.contains("BEGIN PRIVATE KEY") && !$0.lowercased().contains("bearer ") })

        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
