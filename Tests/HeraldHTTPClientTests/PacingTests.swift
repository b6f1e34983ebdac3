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
              let passes = object["passes"] as? Int, let sleeps = object["sleeps"] as? Int, let naps = object["naps"] as? Int
        else { return nil }
        return (passes, sleeps, naps)
    }

    /// Sends `count` requests one after another on a fresh client; returns the statuses and the loop's counters.
    private func sequentialRequests(count: Int, window: Duration) async throws -> (statuses: [Int], counters: (passes: Int, sleeps: Int, naps: Int)?) {
        let pki = try Fixtures.pki.get()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let sink = MemoryLogSink()
        var configuration = Fixtures.clientConfiguration(pki)
        configuration.pacingWindow = window
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Logger(label: "test", level: .debug, sink: sink)) { client in
                var statuses: [Int] = []
                for index in 0..<count {
                    let response = try await client.send(HTTPClientRequest(
                        url: "https://127.0.0.1:\(server.port)/r/\(index)", headers: [("x-status", index % 2 == 0 ? "200" : "410")]))
                    #expect(response.header("echo-path") == "/r/\(index)")
                    statuses.append(response.status)
                }
                return statuses
            }
        }
        return (statuses, loopCounters(sink))
    }

    @Test func aPacedLoopAnswersEveryRequestAndNapsInsteadOfSleepingBetweenThem() async throws {
        let (statuses, counters) = try await sequentialRequests(count: 100, window: .milliseconds(2))
        #expect(statuses == (0..<100).map { $0 % 2 == 0 ? 200 : 410 })
        let loop = try #require(counters, "the loop logs its counters when it stops")
        #expect(loop.naps >= 100, "each response waits for the next pass: \(loop)")
        // A round trip longer than 8 windows (a loaded machine) lets the loop fall
        // asleep; unpaced it sleeps at least once per request (the test below).
        #expect(loop.sleeps < 50, "busy, the loop rarely sleeps until woken: \(loop)")
    }

    @Test func withoutPacingTheLoopSleepsUntilEachRequestOrResponseWakesIt() async throws {
        let (statuses, counters) = try await sequentialRequests(count: 100, window: .zero)
        #expect(statuses.count == 100)
        let loop = try #require(counters)
        #expect(loop.naps == 0, "\(loop)")
        #expect(loop.sleeps >= 100, "one sleep at least per request: \(loop)")
    }
}
