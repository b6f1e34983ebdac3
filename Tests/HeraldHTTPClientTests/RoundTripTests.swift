import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSystem
import HeraldTestSupport
import Testing

@Suite struct RoundTripTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func postCarriesHeadersAndBodyBothWaysOverHTTP2AndTLS(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(
                    HTTPClientRequest(
                        method: "POST", url: "https://127.0.0.1:\(server.port)/3/device/abc",
                        headers: [("x-trace", "t-1"), ("x-status", "201"), ("content-type", "application/json")],
                        body: Array("{\"aps\":{}}".utf8)))
            }
        }
        #expect(response.status == 201, "status is taken from x-status")
        #expect(response.httpVersion == 2, "the exchange must use HTTP/2")
        #expect(response.header("echo-trace") == "t-1", "request header reached the handler: \(response.headers)")
        #expect(response.header("echo-method") == "POST")
        #expect(response.header("echo-path") == "/3/device/abc")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"aps\":{}}")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func getWithoutBodyAndHeaderWithEmptyValueAreSentAsGiven(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(
                    HTTPClientRequest(
                        method: "GET", url: "https://localhost:\(server.port)/healthz?x=1", headers: [("x-empty", "")]))
            }
        }
        #expect(response.status == 200)
        #expect(response.header("echo-method") == "GET")
        #expect(response.header("echo-path") == "/healthz?x=1")
        #expect(
            response.header("echo-empty") == "",
            "a header with an empty value is sent, not dropped: \(response.headers)")
        #expect(response.body.isEmpty)
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func oneMegabyteBodiesTravelBothWays(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/upload", body: body))
            }
        }
        #expect(response.status == 200)
        #expect(response.body.count == body.count, "1 MiB echoed back, got \(response.body.count) bytes")
        #expect(response.body == body, "the echoed body must be byte-identical")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func plaintextH2CWithPriorKnowledgeWorksForLocalUse(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: HTTPClientConfiguration(engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/h2c", body: [1, 2, 3]))
            }
        }
        #expect(response.httpVersion == 2, "http:// must use HTTP/2 prior knowledge, not HTTP/1.1")
        #expect(response.body == [1, 2, 3])
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func thousandConcurrentRequestsShareOneConnection(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let connections = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: RecordingHandler(recorder: connections),
            logger: Fixtures.logger)
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine, connections: 1),
                logger: Fixtures.logger
            ) { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<1000 {
                        group.addTask {
                            try await client.send(
                                HTTPClientRequest(
                                    url: "https://127.0.0.1:\(server.port)/3/device/\(index)",
                                    body: Array("\(index)".utf8))
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
        }
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 200 }, "every request answered 200: \(Set(statuses))")
        #expect(
            connections.connectionIDs.count == 1,
            "all 1000 streams on one connection, saw \(connections.connectionIDs.count)")
        #expect(
            connections.maxInFlight > 1, "streams must overlap (multiplexing), max in flight \(connections.maxInFlight)"
        )
    }
}

@Suite struct InFlightLimitTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func requestsBeyondTheInFlightLimitWaitTheirTurnAndAllSucceed(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: RecordingHandler(recorder: recorder),
            logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxInFlightRequests = 3
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 0..<30 {
                        group.addTask {
                            // A long timeout: waiting for a slot on a loaded machine is not what this test is about.
                            try await client.send(
                                HTTPClientRequest(
                                    url: "https://127.0.0.1:\(server.port)/\(i)", body: Array("x".utf8),
                                    timeout: .seconds(120))
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
        }
        #expect(statuses == Array(repeating: 200, count: 30))
        #expect(recorder.maxInFlight <= 3, "the server saw \(recorder.maxInFlight) requests at once")
        #expect(recorder.maxInFlight >= 2, "requests still overlap up to the limit")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func aRequestThatWaitsPastItsTimeoutFailsRetryably(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "*") { _, responder in
            responder.respond(HTTP2Response(status: 200), after: .milliseconds(600))
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxInFlightRequests = 1
        let errors = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                await withTaskGroup(of: HTTPClientError?.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            do {
                                _ = try await client.send(
                                    HTTPClientRequest(
                                        url: "https://127.0.0.1:\(server.port)/", timeout: .milliseconds(300)))
                                return nil
                            } catch let error as HTTPClientError {
                                return error
                            } catch {
                                return nil
                            }
                        }
                    }
                    return await group.reduce(into: [HTTPClientError?]()) { $0.append($1) }
                }
            }
        }
        // The first times out in flight; the second times out while waiting for the slot.
        #expect(errors.compactMap { $0 }.count == 2)
        #expect(errors.compactMap { $0 }.allSatisfy { $0.kind == .timeout && $0.isRetryable })
    }
}

extension InFlightLimitTests {
    /// Whether a timed-out request was written decides whether sending it
    /// again may duplicate it (`answerLost`): one still waiting for its slot was not.
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func aTimeoutTellsARequestWrittenFromOneThatNeverLeft(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        let slowArrived = Locked(false)
        router.on("POST", "/slow") { _, responder in
            slowArrived.withLock { $0 = true }
            responder.respond(HTTP2Response(status: 200), after: .milliseconds(900))
        }
        router.on("POST", "/hang") { _, responder in responder.respond(HTTP2Response(status: 200), after: .seconds(60))
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxInFlightRequests = 1
        let (waiting, written) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                let url = "https://127.0.0.1:\(server.port)"
                // The slow request holds the only slot; the next one times out waiting for it.
                async let slow = client.send(HTTPClientRequest(url: url + "/slow", timeout: .seconds(60)))
                let holding = await eventually { slowArrived.withLock { $0 } }
                #expect(holding, "the slow request holds the slot")
                let waiting = await clientError {
                    try await client.send(HTTPClientRequest(url: url + "/hang", timeout: .milliseconds(200)))
                }
                let slowStatus = try await slow.status
                #expect(slowStatus == 200)
                let written = await clientError {
                    try await client.send(HTTPClientRequest(url: url + "/hang", timeout: .milliseconds(300)))
                }
                return (waiting, written)
            }
        }
        #expect(waiting?.kind == .timeout && waiting?.answerLost == false, "\(String(describing: waiting))")
        #expect(written?.kind == .timeout && written?.answerLost == true, "\(String(describing: written))")
    }
}

/// Failures before any byte reaches a server: they name the host and say whether a retry can help.
@Suite struct AddressingTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func anUnresolvableHostFailsAsConnectFailedNamingIt(engine: HTTPClientConfiguration.Engine) async throws {
        let error = try await Fixtures.failure(of: "https://no-such-host.invalid/3/device/x", engine: engine)
        #expect(error?.kind == .connectFailed, "got \(String(describing: error))")
        #expect(error?.host.hasPrefix("no-such-host.invalid") == true, "names the host: \(String(describing: error))")
        #expect(error?.isRetryable == true)
        #expect(
            error?.message.lowercased().contains("resolve") == true,
            "says the name did not resolve: \(String(describing: error))")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func aURLThatIsNotHTTPIsAnInvalidRequest(engine: HTTPClientConfiguration.Engine) async throws {
        let error = try await Fixtures.failure(of: "ftp://example.com/x", engine: engine)
        #expect(error?.kind == .invalidRequest, "got \(String(describing: error))")
        #expect(error?.isRetryable == false)
    }

    @Test func aServerStreamLimitSpreadsRequestsOverMoreConnections() async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try Fixtures.streamLimitedServer(pki, streams: 10, recorder: recorder)
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, connections: 3), logger: Fixtures.logger
            ) { client in
                // One request first, so the server's SETTINGS (10 streams) are known before the burst.
                _ = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/warm", body: [1]))
                return try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<90 {
                        group.addTask {
                            try await client.send(
                                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/\(index)", body: [1])
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
        }
        #expect(statuses.count == 90 && statuses.allSatisfy { $0 == 200 }, "all answered: \(Set(statuses))")
        // Three under normal timing; two if the first connection drained the queue while a slow (loaded) machine set up the others.
        #expect(
            (2...3).contains(recorder.connectionIDs.count),
            "10 streams each: more connections open, at most 3, saw \(recorder.connectionIDs.count)")
        #expect(recorder.maxInFlight <= 30, "never more than 3 × 10 streams at once, saw \(recorder.maxInFlight)")
        #expect(recorder.maxInFlight > 10, "the extra connections were used at once, saw \(recorder.maxInFlight)")
    }
}
