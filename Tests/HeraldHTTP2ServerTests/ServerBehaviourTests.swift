import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSystem
import HeraldTestSupport
import Synchronization
import Testing

private func client(_ pki: TestPKI, connections: Int = 1) -> HTTPClientConfiguration {
    HTTPClientConfiguration(
        maxConnectionsPerHost: connections, tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath))
}

/// The order in which concurrent requests completed.
private final class CompletionLog: Sendable {
    private let storage = Locked<[String]>([])

    var entries: [String] { storage.withLock { $0 } }

    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
}

@Suite struct ServerBehaviourTests {
    @Test func hasStartedTurnsTrueWhenRunIsCalledAndStaysTrueAfterShutdown() async throws {
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: DescribeHandler(), logger: Fixtures.logger)
        #expect(!server.hasStarted, "bound and listening, but run() not called yet")
        let during = try await withRunning(server) { server.hasStarted }
        #expect(during, "withRunning starts its body only once the loop thread is started")
        #expect(server.hasStarted, "a server that has run cannot run again")
    }

    @Test func routerAnswers404ForAnUnknownPathAnd405ForAnotherMethod() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "/3/device/*") { _, responder in responder.respond(HTTP2Response(status: 200, text: "ok")) }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let (ok, notFound, wrongMethod) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                let base = "https://127.0.0.1:\(server.port)"
                return (
                    try await http.send(HTTPClientRequest(method: "POST", url: base + "/3/device/abc?x=1")),
                    try await http.send(HTTPClientRequest(method: "POST", url: base + "/nowhere")),
                    try await http.send(HTTPClientRequest(method: "GET", url: base + "/3/device/abc"))
                )
            }
        }
        #expect(ok.status == 200, "prefix route matched, query ignored")
        #expect(notFound.status == 404)
        #expect(String(decoding: notFound.body, as: UTF8.self).contains("BadPath"))
        #expect(wrongMethod.status == 405)
    }

    @Test func delayedResponseDoesNotHoldBackOtherStreamsOnTheSameConnection() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        // The slow answer is held until the fast ones are back: no timer to lose a race on a loaded machine.
        let held = Locked<HTTP2Responder?>(nil)
        router.on("POST", "/slow") { _, responder in held.withLock { $0 = responder } }
        router.on("POST", "/fast") { request, responder in
            responder.respond(HTTP2Response(status: 200, text: "fast \(request.connectionID)"))
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let order = CompletionLog()
        try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                let base = "https://127.0.0.1:\(server.port)"
                _ = try await http.send(HTTPClientRequest(url: base + "/fast"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        _ = try await http.send(HTTPClientRequest(url: base + "/slow", timeout: .seconds(120)))
                        order.append("slow")
                    }
                    _ = await eventually(timeout: .seconds(60)) { held.withLock { $0 } != nil }
                    for _ in 0..<5 {
                        _ = try await http.send(HTTPClientRequest(url: base + "/fast", timeout: .seconds(60)))
                        order.append("fast")
                    }
                    #expect(held.withLock { $0 }?.respond(HTTP2Response(status: 200, text: "slow")) == true)
                    try await group.waitForAll()
                }
            }
        }
        #expect(
            order.entries == ["fast", "fast", "fast", "fast", "fast", "slow"],
            "fast answers overtook the delayed one: \(order.entries)")
    }

    @Test func goAwayAfterStreamsMakesTheClientOpenNewConnections() async throws {
        let pki = try await Fixtures.pki.get()
        var configuration = Fixtures.tlsServer(pki)
        configuration.goAwayAfterStreams = 3
        var router = HTTP2Router()
        router.on("POST", "*") { request, responder in
            responder.respond(HTTP2Response(status: 200, text: "\(request.connectionID)"))
        }
        let server = try HTTP2Server(configuration: configuration, handler: router, logger: Fixtures.logger)
        let connections = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                var seen: [String] = []
                for _ in 0..<10 {
                    let response = try await http.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/x"))
                    seen.append(String(decoding: response.body, as: UTF8.self))
                }
                return seen
            }
        }
        #expect(connections.count == 10, "every request succeeded")
        #expect(Set(connections).count >= 4, "3 streams per connection means ≥ 4 connections: \(connections)")
    }

    @Test func handlerCanSendGoAwayAndStillAnswerItsStream() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "/bye") { request, responder in
            responder.goAway(code: .noError, debugData: Array("{\"reason\":\"Shutdown\"}".utf8))
            responder.respond(HTTP2Response(status: 200, text: "\(request.connectionID)"))
        }
        router.on("POST", "/id") { request, responder in
            responder.respond(HTTP2Response(status: 200, text: "\(request.connectionID)"))
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let (bye, next) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                let base = "https://127.0.0.1:\(server.port)"
                let bye = try await http.send(HTTPClientRequest(url: base + "/bye"))
                let next = try await http.send(HTTPClientRequest(url: base + "/id"))
                return (String(decoding: bye.body, as: UTF8.self), String(decoding: next.body, as: UTF8.self))
            }
        }
        #expect(!bye.isEmpty, "the stream below last-stream-id is answered")
        #expect(bye != next, "after GOAWAY the next request opens a new connection: \(bye) vs \(next)")
    }

    @Test func oversizedRequestBodyIsAnswered413WithoutReachingTheHandler() async throws {
        let pki = try await Fixtures.pki.get()
        var configuration = Fixtures.tlsServer(pki)
        configuration.maxRequestBodyBytes = 1000
        let calls = Atomic<Int>(0)
        var router = HTTP2Router()
        router.on("POST", "*") { _, responder in
            calls.add(1, ordering: .relaxed)
            responder.respond(HTTP2Response(status: 200))
        }
        let server = try HTTP2Server(configuration: configuration, handler: router, logger: Fixtures.logger)
        let (small, large) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                let url = "https://127.0.0.1:\(server.port)/x"
                return (
                    try await http.send(HTTPClientRequest(url: url, body: [UInt8](repeating: 1, count: 1000))).status,
                    try await http.send(HTTPClientRequest(url: url, body: [UInt8](repeating: 1, count: 5000))).status
                )
            }
        }
        #expect(small == 200, "a body at the limit is accepted")
        #expect(large == 413, "a body above the limit is answered 413")
        #expect(calls.load(ordering: .relaxed) == 1, "the oversized request never reached the handler")
    }

    @Test func asyncRouteAnswersFromATaskOffTheEventLoop() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.onAsync("POST", "/async") { request in
            try? await Task.sleep(for: .milliseconds(50))  // the input: an answer that comes later, from a task
            return HTTP2Response(status: 202, headers: [("X-Upper", "kept")], body: request.body.reversed())
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: client(pki), logger: Fixtures.logger) { http in
                try await http.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/async", body: [1, 2, 3]))
            }
        }
        #expect(response.status == 202)
        #expect(response.body == [3, 2, 1])
        #expect(response.header("x-upper") == "kept", "header names are lower-cased on the wire: \(response.headers)")
    }

    @Test func missingCertificateFileFailsAtInitNamingTheFile() async throws {
        let pki = try await Fixtures.pki.get()
        let configuration = HTTP2ServerConfiguration(
            tls: HTTP2ServerTLSConfiguration(
                certificateChainFile: pki.directory + "/missing.pem", privateKeyFile: pki.serverKeyPath))
        #expect {
            _ = try HTTP2Server(configuration: configuration, handler: HTTP2Router(), logger: Fixtures.logger)
        } throws: { error in
            "\(error)".contains("missing.pem") && "\(error)".contains("certificate")
        }
    }

    @Test func bindingAPortInUseFailsNamingThePort() throws {
        let first = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: HTTP2Router(), logger: Fixtures.logger)
        #expect {
            _ = try HTTP2Server(
                configuration: HTTP2ServerConfiguration(port: first.port), handler: HTTP2Router(),
                logger: Fixtures.logger)
        } throws: { error in
            "\(error)".contains("bind 127.0.0.1:\(first.port)") && "\(error)".contains("Address already in use")
        }
    }

    @Test func shutdownBeforeRunEndsRunAtOnceAndRunTwiceIsRejected() async throws {
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: HTTP2Router(), logger: Fixtures.logger)
        server.shutdown()
        try await server.run()
        await #expect(throws: HTTP2ServerError.self, "run() a second time is an error") { try await server.run() }
    }
}
