import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// `pacingWindow`: while busy, the nghttp2 engine's loop naps between passes
/// instead of sleeping until each request or response wakes it.
@Suite struct PacingTests {
    /// The loop's counters from its "stopped" log line.
    private func loopCounters(_ sink: MemoryLogSink) -> (passes: Int, sleeps: Int, naps: Int)? {
        guard let line = sink.lines.last(where: { $0.contains("HTTP client loop stopped") }),
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let passes = object["passes"] as? Int, let sleeps = object["sleeps"] as? Int,
            let naps = object["naps"] as? Int
        else { return nil }
        return (passes, sleeps, naps)
    }

    /// What `count` requests sent one after another on a fresh client saw.
    private struct Run {
        var statuses: [Int] = []
        /// For each request, the time from sending the one before it (or
        /// itself, for the first) to its response: the loop's idle stretches
        /// around that request (before the request reached it, and while the
        /// server answered) both lie within it.
        var spans: [Duration] = []
        var counters: (passes: Int, sleeps: Int, naps: Int)?
    }

    private func sequentialRequests(count: Int, window: Duration) async throws -> Run {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let sink = MemoryLogSink()
        var configuration = Fixtures.clientConfiguration(pki)
        configuration.pacingWindow = window
        var run = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: configuration, logger: Logger(label: "test", level: .debug, sink: sink)
            ) { client in
                var run = Run()
                var previousSend = ContinuousClock.now
                for index in 0..<count {
                    let send = ContinuousClock.now
                    let response = try await client.send(
                        HTTPClientRequest(
                            url: "https://127.0.0.1:\(server.port)/r/\(index)",
                            headers: [("x-status", index % 2 == 0 ? "200" : "410")]))
                    #expect(response.header("echo-path") == "/r/\(index)")
                    run.statuses.append(response.status)
                    run.spans.append(ContinuousClock.now - (index == 0 ? send : previousSend))
                    previousSend = send
                }
                return run
            }
        }
        run.counters = loopCounters(sink)
        return run
    }

    @Test func aPacedLoopAnswersEveryRequestAndNapsInsteadOfSleepingBetweenThem() async throws {
        let window = Duration.milliseconds(2)
        let run = try await sequentialRequests(count: 100, window: window)
        #expect(run.statuses == (0..<100).map { $0 % 2 == 0 ? 200 : 410 })
        let loop = try #require(run.counters, "the loop logs its counters when it stops")
        #expect(loop.naps >= 100, "each response waits for the next pass: \(loop)")
        // The loop falls asleep only after 8 empty passes of at least a window
        // each: at most twice around a request whose span reached 8 windows (a
        // loaded machine), and once each before the first request and after
        // the last. Unpaced, it sleeps at least once per request (the test below).
        let slow = run.spans.filter { $0 >= window * 8 }.count
        #expect(
            loop.sleeps <= 2 * slow + 2,
            "busy, the loop sleeps only where it waited 8 windows: \(loop), \(slow) slow requests")
    }

    @Test func withoutPacingTheLoopSleepsUntilEachRequestOrResponseWakesIt() async throws {
        let run = try await sequentialRequests(count: 100, window: .zero)
        #expect(run.statuses.count == 100)
        let loop = try #require(run.counters)
        #expect(loop.naps == 0, "\(loop)")
        #expect(loop.sleeps >= 100, "one sleep at least per request: \(loop)")
    }
}
