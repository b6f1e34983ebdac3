import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldSystem
import HeraldTestSupport
import Testing

/// Opens connections at 3 streams; `/raise` lifts its connection to 50;
/// `/hold` is answered only when the test calls `release()`.
final class LimitingHandler: HTTP2Handler {
    private let held = Locked<[(HTTP2Responder, HTTP2Response)]>([])

    var heldCount: Int { held.withLock { $0.count } }

    /// Answers every held request (posted to the loop after whatever the caller posted before).
    func release() {
        for (responder, response) in held.withLock({ $0 }) { responder.respond(response) }
    }

    func maxConcurrentStreams(forNewConnection connectionID: UInt64) -> Int? { 3 }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let response = HTTP2Response(status: 200, text: "\(request.httpVersion.rawValue) \(request.path)")
        switch request.path {
        case "/raise":
            responder.setMaxConcurrentStreams(50)
            responder.respond(response)
        case "/hold": held.withLock { $0.append((responder, response)) }
        default: responder.respond(response)
        }
    }
}

/// The stream limit a handler sets per connection, and what a graceful
/// shutdown looks like to nghttp (HTTP/2) and curl (HTTP/1.1).
@Suite struct StreamLimitAndShutdownTests {
    @Test func theHandlerChoosesEachConnectionsLimitAndRaisesItLater() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: LimitingHandler(), logger: Fixtures.logger)
        let (plain, raised) = try await withRunning(server) {
            (
                try await runTool("/usr/bin/nghttp", ["-v", "-n", "https://127.0.0.1:\(server.port)/plain"]),
                try await runTool("/usr/bin/nghttp", ["-v", "-n", "https://127.0.0.1:\(server.port)/raise"])
            )
        }
        #expect(
            NghttpOutput.receivedMaxConcurrentStreams(plain.output) == [3],
            "the handler's limit, not the configuration's 1000: \(plain.output)")
        #expect(
            NghttpOutput.receivedMaxConcurrentStreams(raised.output) == [3, 50],
            "a second SETTINGS after /raise: \(raised.output)")
    }

    @Test func gracefulShutdownSendsGoAwayFinishesStreamsInFlightAndClosesHTTP1AfterItsAnswer() async throws {
        let pki = try await Fixtures.pki.get()
        let handler = LimitingHandler()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: handler, logger: Fixtures.logger)
        let url = "https://localhost:\(server.port)/hold"
        let (http2, http1, late) = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            _ = await eventually(timeout: .seconds(60), every: .milliseconds(1)) { server.hasStarted }
            async let http2 = runTool("/usr/bin/nghttp", ["-v", "-n", url])
            async let http1 = runTool(
                "/usr/bin/curl", ["-sS", "-i", "--http1.1", "--cacert", pki.caCertificatePath, url])
            // Both requests are with the handler before the shutdown begins.
            _ = await eventually(timeout: .seconds(60)) { handler.heldCount >= 2 }
            server.shutdown(graceful: true)
            handler.release()
            let results = (try await http2, try await http1)
            try await group.waitForAll()
            // The listening socket is closed: nothing answers any more.
            let late = try await runTool("/usr/bin/curl", ["-sS", "--cacert", pki.caCertificatePath, url])
            return (results.0, results.1, late)
        }
        #expect(http2.output.contains("recv GOAWAY frame"), "nghttp saw GOAWAY: \(http2.output)")
        #expect(
            http2.output.contains("(last_stream_id=13, error_code=NO_ERROR(0x00)"),
            "its stream is the last: \(http2.output)")
        #expect(http2.output.contains(":status: 200"), "the stream in flight was answered: \(http2.output)")
        #expect(http1.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "curl got its answer: \(http1.output)")
        #expect(http1.output.contains("connection: close\r\n"), "as the connection's last: \(http1.output)")
        #expect(late.status != 0, "after shutdown nothing listens: \(late.output)")
    }
}
