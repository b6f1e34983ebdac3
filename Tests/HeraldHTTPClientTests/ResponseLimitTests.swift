import HeraldAPNs
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// What a server sends back is bounded on both engines: header fields by
/// `maxResponseHeaderBytes`, the body by `maxResponseBodyBytes`; past either
/// the request fails with `.responseTooLarge` and the connection serves on.
@Suite struct ResponseLimitTests {
    /// 60 headers of 1 KiB each (about 62 KiB: nghttp2 lets a server send
    /// header blocks of at most 64 KiB, so the default limit is reached only
    /// by a peer other than ours).
    static let manyHeaders = (0..<60).map { (name: "x-filler-\($0)", value: String(repeating: "0", count: 1024)) }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func responseHeadersOverTheLimitFailTheRequestAndTheClientServesOn(engine: HTTPClientConfiguration.Engine)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        #expect(HTTPClientConfiguration().maxResponseHeaderBytes == 64 << 10, "the documented default")
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: SizedHandler(), logger: Fixtures.logger)
        var limited = Fixtures.clientConfiguration(pki, engine: engine)
        limited.maxResponseHeaderBytes = 16 << 10
        let (error, small, after, underDefault) = try await withRunning(server) {
            let (error, small, after) = try await HTTPClient.withClient(configuration: limited, logger: Fixtures.logger)
            { client in
                let error = await Self.failure(client, "https://127.0.0.1:\(server.port)/headers?count=30")
                let small = try await client.send(
                    HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/headers?count=10"))
                let after = try await client.send(
                    HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/body?bytes=10"))
                return (error, small, after)
            }
            let underDefault = try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/headers?count=60"))
            }
            return (error, small, after, underDefault)
        }
        #expect(error?.kind == .responseTooLarge, "\(engine): \(String(describing: error))")
        #expect(error?.message == "response headers exceed 16384 bytes", "\(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(error?.host == "127.0.0.1:\(server.port)")
        #expect(small.headers.filter { $0.name.hasPrefix("x-filler-") }.count == 10)
        #expect(after.status == 200 && after.body.count == 10, "the client serves on after the refused response")
        #expect(
            underDefault.headers.filter { $0.name.hasPrefix("x-filler-") }.count == 60,
            "62 KiB is under the 64 KiB default")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func theHeaderLimitIsConfigurable(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: SizedHandler(), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxResponseHeaderBytes = 4096
        let error = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                await Self.failure(client, "https://127.0.0.1:\(server.port)/headers?count=5")
            }
        }
        #expect(
            error?.kind == .responseTooLarge && error?.message == "response headers exceed 4096 bytes",
            "\(String(describing: error))")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func responseBodiesOverTheLimitFailTheRequest(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        #expect(HTTPClientConfiguration().maxResponseBodyBytes == 1 << 20, "the documented default")
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: SizedHandler(), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxResponseBodyBytes = 1000
        let (over, at) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                (
                    await Self.failure(client, "https://127.0.0.1:\(server.port)/body?bytes=5000"),
                    try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/body?bytes=1000"))
                )
            }
        }
        #expect(
            over?.kind == .responseTooLarge && over?.message == "response body exceeds 1000 bytes",
            "\(engine): \(String(describing: over))")
        #expect(at.body.count == 1000, "a body of exactly the limit is fine")
    }

    static func failure(_ client: HTTPClient, _ url: String) async -> HTTPClientError? {
        do {
            _ = try await client.send(HTTPClientRequest(url: url))
            return nil
        } catch {
            return error as? HTTPClientError
        }
    }
}

/// `/headers?count=N` answers with N 1 KiB headers (60 without a count),
/// `/body?bytes=N` with an N-byte body.
struct SizedHandler: HTTP2Handler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let parts = request.path.split(separator: "?", maxSplits: 1)
        let number = parts.count == 2 ? parts[1].split(separator: "=").last.flatMap { Int($0) } : nil
        if parts.first == "/headers" {
            responder.respond(
                HTTP2Response(status: 200, headers: Array(ResponseLimitTests.manyHeaders.prefix(number ?? 60))))
        } else {
            responder.respond(HTTP2Response(status: 200, body: [UInt8](repeating: 0x61, count: number ?? 0)))
        }
    }
}

/// APNs' 410 `timestamp` is read only when it is a time (0 up to year 9999):
/// any other number leaves the answer `invalid_token` without a time, on both
/// engines, instead of trapping.
@Suite struct APNsAnswerTests {
    static let timestamps: [(json: String, expected: Timestamp?)] = [
        ("-9223372036854775808", nil), ("9223372036854775807", nil), ("-1", nil), ("1e30", nil),
        ("1795000000123.5", nil),
        ("253402300800000", nil), ("\"1795000000123\"", nil),
        ("1795000000123", Timestamp(millisecondsSinceEpoch: 1_795_000_000_123)),
        ("0", Timestamp(millisecondsSinceEpoch: 0)),
        ("253402300799999", Timestamp(millisecondsSinceEpoch: 253_402_300_799_999)),
    ]

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func an410WithAnOutOfRangeTimestampIsAnInvalidTokenWithoutATime(engine: HTTPClientConfiguration.Engine) async throws
    {
        let pki = try await Fixtures.pki.get()
        var results: [DeliveryResult] = []
        for timestamp in Self.timestamps {
            let body = Array(#"{"reason":"Unregistered","timestamp":\#(timestamp.json)}"#.utf8)
            let server = try HTTP2Server(
                configuration: Fixtures.tlsServer(pki),
                handler: ScriptedHandler(HTTP2Response(status: 410, body: body)),
                logger: Fixtures.logger)
            let event = APNsEvents.event()
            results.append(
                try await withRunning(server) {
                    try await APNsEvents.withProvider(pki: pki, port: server.port, engine: engine) { provider in
                        try await provider.deliver(event, to: event.targets[0], attempt: 1)
                    }
                })
        }
        for (timestamp, result) in zip(Self.timestamps, results) {
            #expect(
                result.status == .invalidToken(invalidatedAt: timestamp.expected),
                "\(timestamp.json) on \(engine): \(result)")
            #expect(result.reason == "Unregistered" && result.providerStatus == 410)
        }
    }

    @Test func theTimestampRangeIsCheckedBeforeATimeIsMade() {
        for timestamp in Self.timestamps {
            let body = APNsErrorBody(parsing: Array(#"{"reason":"Unregistered","timestamp":\#(timestamp.json)}"#.utf8))
            #expect(body?.reason == .unregistered && body?.timestamp == timestamp.expected, "\(timestamp.json)")
        }
    }
}
