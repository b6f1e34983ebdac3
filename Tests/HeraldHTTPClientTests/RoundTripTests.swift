import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

@Suite struct RoundTripTests {
    @Test func postCarriesHeadersAndBodyBothWaysOverHTTP2AndTLS() async throws {
        let pki = try Fixtures.pki.get()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: Fixtures.clientConfiguration(pki), logger: Fixtures.logger) { client in
                try await client.send(HTTPClientRequest(
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

    @Test func getWithoutBodyAndHeaderWithEmptyValueAreSentAsGiven() async throws {
        let pki = try Fixtures.pki.get()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: Fixtures.clientConfiguration(pki), logger: Fixtures.logger) { client in
                try await client.send(HTTPClientRequest(
                    method: "GET", url: "https://localhost:\(server.port)/healthz?x=1", headers: [("x-empty", "")]))
            }
        }
        #expect(response.status == 200)
        #expect(response.header("echo-method") == "GET")
        #expect(response.header("echo-path") == "/healthz?x=1")
        #expect(response.header("echo-empty") == "", "a header with an empty value is sent, not dropped: \(response.headers)")
        #expect(response.body.isEmpty)
    }

    @Test func oneMegabyteBodiesTravelBothWays() async throws {
        let pki = try Fixtures.pki.get()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: Fixtures.clientConfiguration(pki), logger: Fixtures.logger) { client in
                try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/upload", body: body))
            }
        }
        #expect(response.status == 200)
        #expect(response.body.count == body.count, "1 MiB echoed back, got \(response.body.count) bytes")
        #expect(response.body == body, "the echoed body must be byte-identical")
    }

    @Test func plaintextH2CWithPriorKnowledgeWorksForLocalUse() async throws {
        let server = try HTTP2Server(configuration: HTTP2ServerConfiguration(), handler: EchoHandler(), logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(logger: Fixtures.logger) { client in
                try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/h2c", body: [1, 2, 3]))
            }
        }
        #expect(response.httpVersion == 2, "http:// must use HTTP/2 prior knowledge, not HTTP/1.1")
        #expect(response.body == [1, 2, 3])
    }

    @Test func thousandConcurrentRequestsShareOneConnection() async throws {
        let pki = try Fixtures.pki.get()
        let connections = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: RecordingHandler(recorder: connections), logger: Fixtures.logger)
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, connections: 1), logger: Fixtures.logger
            ) { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<1000 {
                        group.addTask {
                            try await client.send(HTTPClientRequest(
                                url: "https://127.0.0.1:\(server.port)/3/device/\(index)", body: Array("\(index)".utf8))).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
        }
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 200 }, "every request answered 200: \(Set(statuses))")
        #expect(connections.connectionIDs.count == 1, "all 1000 streams on one connection, saw \(connections.connectionIDs.count)")
        #expect(connections.maxInFlight > 1, "streams must overlap (multiplexing), max in flight \(connections.maxInFlight)")
    }
}

@Suite struct InFlightLimitTests {
    @Test func requestsBeyondTheInFlightLimitWaitTheirTurnAndAllSucceed() async throws {
        let pki = try Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: RecordingHandler(recorder: recorder), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki)
        configuration.maxInFlightRequests = 3
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for i in 0..<30 {
                        group.addTask {
                            try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/\(i)", body: Array("x".utf8))).status
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

    @Test func aRequestThatWaitsPastItsTimeoutFailsRetryably() async throws {
        let pki = try Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "*") { _, responder in responder.respond(HTTP2Response(status: 200), after: .milliseconds(600)) }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki)
        configuration.maxInFlightRequests = 1
        let errors = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                await withTaskGroup(of: HTTPClientError?.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            do {
                                _ = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/", timeout: .milliseconds(300)))
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
