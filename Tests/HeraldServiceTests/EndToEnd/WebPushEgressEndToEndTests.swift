import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSimulator
import HeraldTestSupport
import Testing

/// Web Push endpoints that name this host, end to end: events through
/// RabbitMQ name subscriptions at a TLS listener of the test's own on
/// loopback (trusted through `ca_file`, answering with a distinctive header
/// and body). Without the opt-in each target fails with `EndpointNotAllowed`
/// and the listener accepts no connection, so nothing of it can reach
/// `herald.results`; with `unsafe_allow_internal_addresses` the same listener
/// is reached and its answer shows in the debug trace (the marker the first
/// test looks for is one that would be seen).
@Suite(.serialized) struct WebPushEgressEndToEndTests {
    /// A loopback "internal service": answers every request 201 with the
    /// marker in a header and the body, and counts the connections it accepts
    /// (the server's own "connection accepted" log lines).
    final class InternalService: Sendable {
        let marker = "internal-secret-\(UInt64.random(in: 0...UInt64.max))"
        let log = MemoryLogSink()
        let server: HTTP2Server

        struct Handler: HTTP2Handler {
            let marker: String
            func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
                responder.respond(
                    HTTP2Response(
                        status: 201, headers: [("x-internal", marker), ("location", "https://internal/\(marker)")],
                        body: Array("{\"secret\": \"\(marker)\"}".utf8)))
            }
        }

        init(pki: TestPKI) throws {
            let configuration = HTTP2ServerConfiguration(
                host: "127.0.0.1",
                tls: HTTP2ServerTLSConfiguration(
                    certificateChainFile: pki.serverCertificatePath, privateKeyFile: pki.serverKeyPath))
            server = try HTTP2Server(
                configuration: configuration, handler: Handler(marker: marker),
                logger: Logger(label: "internal", level: .debug, sink: log))
        }

        var acceptedConnections: Int { log.lines.filter { $0.contains("connection accepted") }.count }
    }

    /// A Web Push target at `endpoint` with a real subscription's keys (so it is encrypted for and reaches sending).
    private func target(_ endpoint: String, keysOf subscription: SimulatedWebPushSubscription) throws -> String {
        let keys = try #require(try subscription.jsonValue()["keys"])
        return #"{"provider": "webpush", "subscription": {"endpoint": "\#(endpoint)", "keys": \#(keys.jsonString)}}"#
    }

    @Test func endpointsOnThisHostFailWithEndpointNotAllowedAndNoConnectionIsMade() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let service = try InternalService(pki: simulator.pki)
        let subscription = try simulator.webPushSubscription()
        let port = service.server.port
        // Any host is allowed, so only the address policy stands between an event and the listener.
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator, egress: "\n      allowed_hosts: [\"*\"]"))
        let endpoints = [
            "https://127.0.0.1:\(port)/push/a", "https://localhost:\(port)/push/b",
            "https://[::ffff:127.0.0.1]:\(port)/push/c", "https://0.0.0.0:\(port)/push/d",
            "https://127.1:\(port)/push/e",
        ]
        try await withRunning(service.server) {
            try await RunningService.serving(config) { results, publisher in
                let targets = try endpoints.map { try target($0, keysOf: subscription) }.joined(separator: ", ")
                try await publisher.publish(
                    """
                    {"id": "ssrf", "app": "chat", "debug": true, "targets": [\(targets)], "notification": {"title": "x"}}
                    """)
                #expect(await results.wait { $0.count == endpoints.count })
                let outcomes = results.all.map(\.outcome)
                #expect(Set(outcomes.compactMap(\.address?.value)) == Set(endpoints))
                for outcome in outcomes {
                    #expect(outcome.status == .failed, "\(outcome)")
                    #expect(outcome.reason == "EndpointNotAllowed", "\(outcome)")
                    #expect(outcome.detail?.contains("is not a public address") == true, "\(outcome)")
                    #expect(outcome.providerStatus == nil)
                }
                let detail = { (endpoint: String) in outcomes.first { $0.address?.value == endpoint }?.detail ?? "" }
                #expect(
                    detail(endpoints[0])
                        == "the address 127.0.0.1 is not a public address: 127.0.0.0/8 loopback (RFC 1122)")
                #expect(
                    detail(endpoints[2]).contains(
                        "127.0.0.1 in 127.0.0.0/8 loopback (RFC 1122), carried inside ::ffff:0:0/96"))
                #expect(detail(endpoints[3]).contains("0.0.0.0/8"))
                // localhost passed the pre-check (a name) and was refused on its resolved address.
                #expect(detail(endpoints[1]).contains("loopback"), "\(detail(endpoints[1]))")
                #expect(!results.traces.isEmpty, "the event asked for a debug trace")
                for body in results.rawBodies {
                    #expect(!String(decoding: body, as: UTF8.self).contains(service.marker))
                }
            }
        }
        #expect(service.acceptedConnections == 0, "\(service.log.lines)")
    }

    @Test func withTheOptInTheSameListenerIsReachedAndItsAnswerIsTraced() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let service = try InternalService(pki: simulator.pki)
        let subscription = try simulator.webPushSubscription()
        let config = try ServiceConfig(
            simulator: simulator, extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator))
        try await withRunning(service.server) {
            try await RunningService.serving(config) { results, publisher in
                let endpoint = "https://127.0.0.1:\(service.server.port)/push/a"
                try await publisher.publish(
                    """
                    {"id": "opt-in", "app": "chat", "debug": true, "targets": [\(try target(endpoint, keysOf: subscription))],
                     "notification": {"title": "x"}}
                    """)
                #expect(await results.wait { $0.count == 1 })
                #expect(results.all.first?.outcome.status == .delivered, "\(results.all.map(\.outcome))")
                #expect(results.rawBodies.contains { String(decoding: $0, as: UTF8.self).contains(service.marker) })
            }
        }
        #expect(service.acceptedConnections == 1, "\(service.log.lines)")
    }
}
