import Foundation
import Glibc
import HeraldCore
import HeraldHTTP2Server
import HeraldSimulator
import HeraldTestSupport
import HeraldWebPush
import Testing

/// A push service writes what it likes into an answer: here as much as
/// Herald reads of one (64 KiB) of escape sequences, bells and C1
/// characters as the JSON `reason` of a 400, to 300 targets of one event. Through `herald run` (a child process), a real
/// broker and a TLS push service of the test's own, every outcome's reason
/// is the status's name, its detail bounded and clean, the outcomes' bytes
/// and the process's peak memory stay under fixed bounds, and the event is
/// settled once (acked, not redelivered into the same blow-up).
@Suite(.serialized) struct ProviderWordsProcessTests {
    /// Targets of the event.
    static let targets = 300
    /// The answer's body: a JSON object whose `reason` is escape sequences,
    /// bells and C1 characters (JSON-escaped, so it parses), just under the
    /// longest answer Herald reads from a push service.
    static let hostileBody: [UInt8] = {
        let unit = #"\u001b]0;owned\u0007\u001b[2J\u009b31m"#
        let count = (WebPushSettings.maxAnswerBytes - 64) / unit.utf8.count
        return Array(#"{"reason":""#.utf8) + Array(String(repeating: unit, count: count).utf8) + Array(#""}"#.utf8)
    }()

    /// Every outcome's published body stays under this: fixed fields, a
    /// Web Push endpoint, a status name and at most 512 bytes of detail.
    /// Verbatim, each carried the whole 1 MiB reason.
    static let maxOutcomeBytes = 2048
    /// Growth of the process's peak RSS (VmHWM) over the event: the answer
    /// bodies waiting to be classified (at most all 300 × 64 KiB, about
    /// 19 MiB), connections and the bounded outcomes. Verbatim, 1 MiB
    /// reasons were held three times over (the outcomes, their encoded
    /// messages, the publish buffer: 837 MiB measured), and 1 MiB bodies
    /// waiting to be classified alone took 279 MiB.
    static let maxPeakGrowthBytes = 128 << 20

    /// The one config of these tests: the simulator's CA and VAPID key, Web
    /// Push endpoints on loopback (where an opt-in for loopback push
    /// services belongs).
    static func config(_ simulator: SimulatorHarness) throws -> ServiceConfig {
        try ServiceConfig(
            simulator: simulator, maxAttempts: 1,
            extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator, timeout: "60s"),
            httpListen: "127.0.0.1:\(try freeLocalPort())", logLevel: "warning")
    }

    /// Answers every request 400 with `body`.
    struct HostilePushService: HTTP2Handler {
        var body = ProviderWordsProcessTests.hostileBody

        func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
            responder.respond(HTTP2Response(status: 400, headers: [("content-type", "application/json")], body: body))
        }
    }

    /// A push service answering every request with `handler`'s 400, over
    /// HTTP/1.1 as many push services speak it, on the simulator's certificate.
    static func hostileServer(_ simulator: SimulatorHarness, _ handler: HostilePushService = HostilePushService())
        throws -> HTTP2Server
    {
        var tls = HTTP2ServerTLSConfiguration(
            certificateChainFile: simulator.pki.serverCertificatePath,
            privateKeyFile: simulator.pki.serverKeyPath)
        tls.offersHTTP2 = false
        return try HTTP2Server(
            configuration: HTTP2ServerConfiguration(tls: tls), handler: handler,
            logger: Logger(label: "test-hostile-push", level: .error))
    }

    /// `count` Web Push targets (as event JSON) whose endpoints are on `server`.
    static func targets(_ count: Int, at server: HTTP2Server, _ simulator: SimulatorHarness) throws -> [String] {
        try (0..<count).map { _ in
            let issued = try simulator.webPushSubscription()
            guard case .object(var subscription) = try issued.jsonValue() else { throw TestFailure("not an object") }
            subscription["endpoint"] = .string("https://localhost:\(server.port)/push/\(issued.id)")
            return #"{"provider": "webpush", "subscription": \#(JSONValue.object(subscription).jsonString)}"#
        }
    }

    /// `herald run` on `config`, once it answers `/readyz`.
    static func startReady(_ fixture: ProcessFixture, _ config: ServiceConfig) async throws -> ChildProcess {
        let herald = try fixture.start(config)
        let port = try #require(config.httpPort)
        try #require(
            await eventually(timeout: .seconds(30)) { httpGet(port: port, path: "/readyz")?.status == 200 },
            "herald run never became ready:\n\(herald.tail())")
        return herald
    }

    /// VmHWM (peak resident set) of `pid`, in bytes.
    static func peakRSS(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test func aHugeReasonFullOfControlsFrom300TargetsStaysShortCleanAndBounded() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let server = try Self.hostileServer(simulator)
        let config = try Self.config(simulator)
        try await withRunning(server) {
            try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
                let targets = try Self.targets(Self.targets, at: server, simulator)
                let herald = try await Self.startReady(fixture, config)
                let before = try #require(Self.peakRSS(herald.pid))
                try await fixture.publisher.publish(
                    """
                    {"id": "hostile-1", "app": "chat", "targets": [\(targets.joined(separator: ", "))], "notification": {"title": "x"}}
                    """)
                let all = await fixture.results.wait(timeout: .seconds(120)) { $0.count >= Self.targets }
                try #require(all, "\(fixture.results.all.count) of \(Self.targets) outcomes:\n\(herald.tail())")
                let peak = try #require(Self.peakRSS(herald.pid))

                for (routingKey, outcome) in fixture.results.all {
                    #expect(routingKey == "failed.webpush.chat")
                    #expect(outcome.reason == "BadRequest", "\(outcome.reason?.prefix(80) ?? "no reason")")
                    #expect(outcome.providerStatus == 400)
                    let detail = try #require(outcome.detail)
                    #expect(
                        detail.utf8.count <= DeliveryDetail.maxBytes && !Self.hasControl(detail),
                        "\(detail.debugDescription)")
                    #expect(detail.hasPrefix("]0;owned"), "\(detail)")
                }
                let sizes = fixture.results.rawBodies.map(\.count)
                #expect(
                    sizes.allSatisfy { $0 <= Self.maxOutcomeBytes }, "outcome sizes up to \(sizes.max() ?? 0) bytes")
                #expect(sizes.reduce(0, +) <= Self.targets * Self.maxOutcomeBytes)
                #expect(
                    peak - before <= Self.maxPeakGrowthBytes,
                    "peak RSS grew \((peak - before) >> 20) MiB (from \(before >> 20) MiB), over \(Self.maxPeakGrowthBytes >> 20) MiB"
                )
                // The log: one warning a target, each bounded, no control byte. The warnings are
                // written on the pool after the outcomes are confirmed, so they may still be coming.
                func warnings() -> [Substring] {
                    herald.output.split(separator: "\n").filter { $0.contains("notification not delivered") }
                }
                #expect(await eventually(timeout: .seconds(60)) { warnings().count >= Self.targets })
                let log = herald.output
                let lines = warnings()
                #expect(lines.count == Self.targets, "\(lines.count) warnings:\n\(herald.tail(5))")
                #expect(
                    lines.allSatisfy { $0.utf8.count <= 4096 },
                    "log lines up to \(lines.map(\.utf8.count).max() ?? 0) bytes")
                #expect(!Self.hasControl(log.replacingOccurrences(of: "\n", with: "")))
                // Settled once: nothing redelivered, nothing left for the queue to hand out again.
                #expect(!log.contains("event not settled"), "\(herald.tail())")
                herald.send(SIGTERM)
                #expect(await herald.waitForExit(timeout: .seconds(30)) == .exited(0), "\(herald.tail())")
                #expect(fixture.results.all.count == Self.targets, "outcomes published again")
            }
        }
    }

    /// An answer of 1 MiB of escape sequences is not read past the 64 KiB
    /// Herald reads of a push service's answer: each target is `failed` with
    /// a short reason that names the limit, no control byte anywhere.
    @Test func aMegabyteAnswerIsNotReadAndItsTargetsFailWithAShortCleanReason() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let unit = #"\u001b]0;owned\u0007\u001b[2J\u009b31m"#
        let megabyte =
            Array(#"{"reason":""#.utf8) + Array(String(repeating: unit, count: (1 << 20) / unit.utf8.count).utf8)
            + Array(#""}"#.utf8)
        let server = try Self.hostileServer(simulator, HostilePushService(body: megabyte))
        let config = try Self.config(simulator)
        let count = 20
        try await withRunning(server) {
            try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
                let targets = try Self.targets(count, at: server, simulator)
                let herald = try await Self.startReady(fixture, config)
                try await fixture.publisher.publish(
                    """
                    {"id": "megabyte-1", "app": "chat", "targets": [\(targets.joined(separator: ", "))], "notification": {"title": "x"}}
                    """)
                let all = await fixture.results.wait(timeout: .seconds(60)) { $0.count >= count }
                try #require(all, "\(fixture.results.all.count) of \(count) outcomes:\n\(herald.tail())")
                for (_, outcome) in fixture.results.all {
                    #expect(outcome.status == .failed)
                    let reason = outcome.reason ?? ""
                    #expect(
                        reason.hasPrefix("transport responseTooLarge")
                            && reason.contains("\(WebPushSettings.maxAnswerBytes)"), "\(reason)")
                    #expect(reason.utf8.count <= 256 && !Self.hasControl(reason), "\(reason.debugDescription)")
                }
                #expect(fixture.results.rawBodies.allSatisfy { $0.count <= Self.maxOutcomeBytes })
                #expect(!Self.hasControl(herald.output.replacingOccurrences(of: "\n", with: "")))
                herald.send(SIGTERM)
                #expect(await herald.waitForExit(timeout: .seconds(30)) == .exited(0), "\(herald.tail())")
            }
        }
    }

    /// An event whose context takes almost all of the 8 MiB budget (4 000
    /// bytes × 2 000 targets): the first outcomes keep the push service's
    /// detail, the later ones lose it and keep their reason, and all 2 000
    /// are published (in two batches) before the event is acked, once.
    @Test func outcomesOverTheBudgetLoseTheirDetailAndAllArePublished() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let words = String(repeating: "w", count: 600)
        let server = try Self.hostileServer(
            simulator, HostilePushService(body: Array(#"{"reason": "\#(words)"}"#.utf8)))
        let config = try Self.config(simulator)
        let count = 2000
        try await withRunning(server) {
            try await ProcessFixture.with(simulator: simulator, config: config) { fixture in
                let targets = try Self.targets(count, at: server, simulator)
                let herald = try await Self.startReady(fixture, config)
                let context = #"{"k": "\#(String(repeating: "c", count: 3990))"}"#
                try await fixture.publisher.publish(
                    """
                    {"id": "budget-1", "app": "chat", "context": \(context), "targets": [\(targets.joined(separator: ", "))],
                     "notification": {"title": "x"}}
                    """)
                let all = await fixture.results.wait(timeout: .seconds(240)) { $0.count >= count }
                try #require(all, "\(fixture.results.all.count) of \(count) outcomes:\n\(herald.tail())")
                let outcomes = fixture.results.all.map(\.outcome)
                #expect(outcomes.allSatisfy { $0.reason == "BadRequest" && $0.status == .failed })
                let withDetail = outcomes.filter { $0.detail != nil }.count
                // 8 388 608 − 2 000 × 4 000 bytes of context leave room for about 740 details of 512 bytes.
                #expect((1..<count).contains(withDetail), "\(withDetail) outcomes with a detail")
                #expect(withDetail <= (8 << 20) / 512 - count * 4000 / 512 + 1, "\(withDetail) outcomes with a detail")
                #expect(
                    outcomes.filter { $0.detail != nil }.allSatisfy {
                        $0.detail?.utf8.count ?? 0 <= DeliveryDetail.maxBytes
                    })
                herald.send(SIGTERM)
                #expect(await herald.waitForExit(timeout: .seconds(30)) == .exited(0), "\(herald.tail())")
                #expect(!herald.output.contains("event not settled"), "\(herald.tail())")
                #expect(fixture.results.all.count == count, "outcomes published again")
            }
        }
    }
}
