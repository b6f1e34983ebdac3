import Glibc
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Synchronization
import Testing

/// Routes used by the resilience tests: `/fast` answers at once, `/slow`
/// after 60 s, `/hold` after 60 s on the first connection (so only an abort
/// ends it, however slowly the test runs) and at once on any later one (where
/// libcurl resends), `/ignore` never (the responder is dropped), `/reset` with RST_STREAM.
private func resilienceRouter(_ recorder: ConnectionRecorder) -> HTTP2Router {
    var router = HTTP2Router()
    router.on("POST", "/fast") { request, responder in
        recorder.arrived(request.connectionID)
        responder.respond(HTTP2Response(status: 200, text: "fast"))
    }
    router.on("POST", "/slow") { request, responder in
        recorder.arrived(request.connectionID)
        responder.respond(HTTP2Response(status: 200, text: "slow"), after: .seconds(60))
    }
    router.on("POST", "/hold") { request, responder in
        recorder.arrived(request.connectionID)
        let held: Duration = recorder.isFirst(request.connectionID) ? .seconds(60) : .zero
        responder.respond(HTTP2Response(status: 200, text: "held"), after: held)
    }
    router.on("POST", "/ignore") { _, _ in }
    router.on("POST", "/reset") { _, responder in responder.reset(.internalError) }
    router.on("POST", "/big") { _, responder in
        responder.respond(HTTP2Response(status: 200, body: [UInt8](repeating: 0x61, count: 5000)))
    }
    return router
}

/// The `HTTPClientError` `body` fails with; nil when it succeeds.
func clientError(_ body: () async throws -> HTTPClientResponse) async -> HTTPClientError? {
    do {
        _ = try await body()
        return nil
    } catch let error as HTTPClientError {
        return error
    } catch {
        Issue.record("expected HTTPClientError, got \(error)")
        return nil
    }
}

@Suite struct ResilienceTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func goAwayMidLoadFailsOnlyRetryablyAndNothingHangs(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, goAwayAfterStreams: 150), handler: resilienceRouter(recorder),
            logger: Fixtures.logger)
        let outcomes: [Result<Int, HTTPClientError>] = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine, connections: 2, timeout: .seconds(15)),
                logger: Fixtures.logger
            ) { client in
                await withTaskGroup(of: Result<Int, HTTPClientError>.self) { group in
                    for _ in 0..<1000 {
                        group.addTask {
                            do {
                                return .success(
                                    try await client.send(
                                        HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/fast", body: [1])
                                    ).status)
                            } catch let error as HTTPClientError {
                                return .failure(error)
                            } catch {
                                return .failure(HTTPClientError(kind: .other, host: "", message: "\(error)"))
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
        }
        let failures = outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        let successes = outcomes.filter { if case .success(200) = $0 { true } else { false } }
        #expect(outcomes.count == 1000, "every request finished")
        #expect(successes.count + failures.count == 1000, "a request either got 200 or failed: \(outcomes.count)")
        #expect(
            failures.allSatisfy { $0.isRetryable }, "only retryable failures: \(failures.filter { !$0.isRetryable })")
        #expect(!failures.contains { $0.kind == .timeout }, "no request hung until its timeout")
        #expect(successes.count >= 150, "at least the streams before the first GOAWAY succeeded: \(successes.count)")
        #expect(recorder.connectionIDs.count >= 2, "GOAWAY forced new connections, saw \(recorder.connectionIDs.count)")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func abortedConnectionFailsInFlightRequestsRetryablyAndTheNextRequestReconnects(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(recorder), logger: Fixtures.logger)
        try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                let url = "https://127.0.0.1:\(server.port)"
                let errors = try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
                    for _ in 0..<5 {
                        group.addTask {
                            await clientError { try await client.send(HTTPClientRequest(url: url + "/hold")) }
                        }
                    }
                    #expect(await eventually { recorder.connectionIDs.count == 1 && recorder.maxInFlight >= 5 })
                    server.abortConnections()
                    return try await group.reduce(into: [HTTPClientError?]()) { $0.append($1) }
                }
                // libcurl itself may resend a request that got no byte back on a fresh
                // connection (nil here: it succeeded); every other one must fail retryably.
                let failures = errors.compactMap { $0 }
                #expect(errors.count == 5)
                if engine == .nghttp2 {
                    #expect(failures.count == 5, "the abort failed every request in flight: \(errors)")
                } else {
                    // On a loaded host libcurl has resent all five, on one new connection or more.
                    #expect(
                        !failures.isEmpty || recorder.connectionIDs.count >= 2,
                        "the abort failed requests in flight, or libcurl resent them on a new connection")
                }
                for error in failures {
                    #expect(error.isRetryable, "in-flight request fails retryably, got \(error)")
                    #expect(error.kind == .connectionLost, "a reset connection is a lost connection: \(error)")
                    #expect(error.host == "127.0.0.1:\(server.port)", "error names the host: \(error)")
                }
                let after = try await client.send(HTTPClientRequest(url: url + "/fast"))
                #expect(after.status == 200, "a new connection serves the next request")
                if engine == .nghttp2 {
                    #expect(recorder.connectionIDs.count == 2, "the next request used a new connection")
                } else {
                    #expect(recorder.connectionIDs.count >= 2, "the next request used a new connection")
                }
            }
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func serverKilledAndRestartedOnTheSamePortIsSurvived(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let first = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(recorder), logger: Fixtures.logger)
        let port = first.port
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        // No keep-alive PING within the waits below: only reading the reset shows the client its connection died.
        configuration.keepAliveInterval = .seconds(300)
        try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
            let request = HTTPClientRequest(url: "https://127.0.0.1:\(port)/fast")
            let before = try await withRunning(first) {
                let response = try await client.send(request)
                if engine == .nghttp2 {
                    #expect(
                        await eventually { client.statistics.pools.first?.connections == 1 },
                        "\(client.statistics.pools)")
                }
                return response
            }
            #expect(before.status == 200)
            // withRunning stopped the first server abruptly: it reset its connection. The client
            // learns that only when its loop reads the reset, and on a loaded machine the next
            // request can reach the loop first (the reset or the loop thread delayed): it then goes
            // out on the dead connection and fails connectionLost (honest and retryable: nothing
            // tells a client sooner that its peer died). A request sent after finds nothing
            // listening: connectFailed. This pins the second: the request waits until the client
            // has seen the reset (the kernel's socket no longer established; nghttp2's pool,
            // published after it held the connection, empty).
            #expect(
                await eventually { establishedConnections(toPort: port) == 0 }, "the reset reached the client's socket")
            if engine == .nghttp2 {
                #expect(
                    await eventually { client.statistics.pools.first?.connections == 0 },
                    "the client dropped the dead connection: \(client.statistics.pools)")
            }
            let down = await clientError { try await client.send(request) }
            #expect(down?.kind == .connectFailed, "nothing listens: \(String(describing: down))")
            #expect(down?.isRetryable == true)
            let second = try HTTP2Server(
                configuration: Fixtures.tlsServer(pki, port: port), handler: resilienceRouter(recorder),
                logger: Fixtures.logger)
            let after = try await withRunning(second) { try await client.send(request) }
            #expect(after.status == 200, "the restarted server is reached on a new connection")
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func gracefulShutdownAnswersStreamsInFlightThenRefusesConnections(engine: HTTPClientConfiguration.Engine)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        let arrived = Atomic<Int>(0)
        router.on("POST", "/later") { _, responder in
            arrived.add(1, ordering: .relaxed)
            responder.respond(HTTP2Response(status: 200, text: "done"), after: .milliseconds(300))
        }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        try await HTTPClient.withClient(
            configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
        ) { client in
            let url = "https://127.0.0.1:\(server.port)/later"
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                let statuses = try await withThrowingTaskGroup(of: Int.self) { requests in
                    for _ in 0..<3 { requests.addTask { try await client.send(HTTPClientRequest(url: url)).status } }
                    #expect(await eventually { arrived.load(ordering: .relaxed) == 3 })
                    server.shutdown(graceful: true)
                    return try await requests.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses == [200, 200, 200], "streams in flight are answered during a graceful shutdown")
                try await group.waitForAll()
            }
            let refused = await clientError { try await client.send(HTTPClientRequest(url: url)) }
            #expect(refused?.kind == .connectFailed, "after shutdown nothing listens: \(String(describing: refused))")
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func requestTimeoutFailsRetryablyWithoutWaitingForTheServer(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(ConnectionRecorder()),
            logger: Fixtures.logger)
        let clock = ContinuousClock()
        let (error, elapsed) = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                let start = clock.now
                let error = await clientError {
                    try await client.send(
                        HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/slow", timeout: .milliseconds(300)))
                }
                return (error, clock.now - start)
            }
        }
        #expect(error?.kind == .timeout, "got \(String(describing: error))")
        #expect(error?.isRetryable == true)
        // A generous bound (the machine may be loaded): what matters is not waiting for the 60 s answer.
        #expect(elapsed < .seconds(30), "the timeout fired long before the 60 s answer")
        #expect(
            error?.description.contains("127.0.0.1:\(server.port)") == true,
            "names the host: \(String(describing: error))")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func cancellingTheWaitingTaskAbandonsOnlyThatRequest(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(recorder), logger: Fixtures.logger)
        try await withRunning(server) {
            // The request timeout is past the 60 s answer, so only the cancellation can end the request early.
            let configuration = Fixtures.clientConfiguration(pki, engine: engine, timeout: .seconds(120))
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                let url = "https://127.0.0.1:\(server.port)"
                let clock = ContinuousClock()
                let start = clock.now
                let task = Task { await clientError { try await client.send(HTTPClientRequest(url: url + "/slow")) } }
                #expect(await eventually { recorder.maxInFlight >= 1 })
                task.cancel()
                let error = await task.value
                #expect(error?.kind == .cancelled, "got \(String(describing: error))")
                #expect(error?.isRetryable == false)
                #expect(clock.now - start < .seconds(55), "cancellation does not wait for the 60 s answer")
                let next = try await client.send(HTTPClientRequest(url: url + "/fast"))
                #expect(next.status == 200, "the client keeps working after a cancellation")
            }
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func droppedResponderAndServerResetFailTheStreamRetryably(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(ConnectionRecorder()),
            logger: Fixtures.logger)
        try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                for path in ["/ignore", "/reset"] {
                    let error = await clientError {
                        try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)" + path))
                    }
                    #expect(error?.kind == .connectionLost, "\(path): stream reset, got \(String(describing: error))")
                    #expect(error?.isRetryable == true, "\(path)")
                    if engine == .libcurl {
                        #expect(error?.curlCode != nil, "\(path): carries libcurl's code")
                    } else {
                        #expect(
                            error?.message.contains("reset the stream") == true
                                || error?.message.contains("without a complete response") == true,
                            "\(path): says what happened to the stream: \(String(describing: error))")
                    }
                }
                let next = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/fast"))
                #expect(next.status == 200, "a reset stream does not break the connection")
            }
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func responseBodyAboveTheCapFailsWithoutRetry(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(ConnectionRecorder()),
            logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.maxResponseBodyBytes = 1000
        let error = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                await clientError {
                    try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/big"))
                }
            }
        }
        #expect(error?.kind == .responseTooLarge, "got \(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("1000") == true, "names the cap: \(String(describing: error))")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func sendAfterShutdownFailsAtOnce(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let client = HTTPClient(configuration: HTTPClientConfiguration(engine: engine), logger: Fixtures.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            client.shutdown()
            try await group.waitForAll()
        }
        let error = await clientError { try await client.send(HTTPClientRequest(url: "https://127.0.0.1:1/x")) }
        #expect(error?.kind == .shutdown, "got \(String(describing: error))")
        #expect(error?.host == "127.0.0.1:1")
    }
}

/// What only the nghttp2 engine promises: refused streams sent again, idle connections retired.
@Suite struct NGHTTP2EngineTests {
    @Test func streamsAGoAwayRefusedAreSentAgainOnANewConnectionAndAllSucceed() async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, goAwayAfterStreams: 20), handler: resilienceRouter(recorder),
            logger: Fixtures.logger)
        let statuses = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: .nghttp2, connections: 1),
                logger: Fixtures.logger
            ) { client in
                // Settle the server's SETTINGS first, then 60 at once: 20 per connection, the rest refused and resent.
                _ = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/fast", body: [1]))
                return try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<58 {
                        group.addTask {
                            try await client.send(
                                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/fast", body: [1])
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
        }
        #expect(
            statuses.count == 58 && statuses.allSatisfy { $0 == 200 },
            "unprocessed streams are safe to resend: \(Set(statuses))")
        #expect(
            recorder.connectionIDs.count >= 3,
            "20 streams per connection, saw \(recorder.connectionIDs.count) connections")
    }

    @Test func aConnectionIdleLongerThanTheMaximumAgeIsReplaced() async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: resilienceRouter(recorder), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: .nghttp2)
        configuration.maxIdleConnectionAge = .milliseconds(500)
        let (before, after) = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                let url = "https://127.0.0.1:\(server.port)/fast"
                _ = try await client.send(HTTPClientRequest(url: url, body: [1]))
                let before = recorder.connectionIDs
                // Idle for three times the maximum age (the loop looks every 20 ms): the
                // connection's age is the input under test, so this waits on the clock.
                try await Task.sleep(for: .milliseconds(1500))
                let status = try await client.send(HTTPClientRequest(url: url, body: [1])).status
                #expect(status == 200)
                return (before, recorder.connectionIDs)
            }
        }
        #expect(
            after.count == before.count + 1 && after.isSuperset(of: before),
            "the idle connection was closed and the next request opened a new one: \(before) then \(after)")
    }
}

/// Established TCP connections of this process to `port`, as its clients see
/// them (/proc/net/tcp and tcp6, read line by line: procfs files report no
/// size). Only this process's sockets count: a socket of another process (or
/// of a server, whose remote port is its client's) is never one of ours,
/// whatever port it happens to name.
private func establishedConnections(toPort port: Int) -> Int {
    let wanted = String(port, radix: 16, uppercase: true)
    let ours = socketInodesOfThisProcess()
    var count = 0
    for path in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let file = fopen(path, "r") else { continue }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ")
            // sl local_address rem_address st … inode: the remote side is the server's port; state 01 is ESTABLISHED.
            guard fields.count > 9, let remotePort = fields[2].split(separator: ":").last else { continue }
            if remotePort.drop(while: { $0 == "0" }) == wanted.drop(while: { $0 == "0" }) && fields[3] == "01"
                && ours.contains(String(fields[9]))
            {
                count += 1
            }
        }
    }
    return count
}

/// The inodes of this process's open sockets (`socket:[N]` links under /proc/self/fd).
private func socketInodesOfThisProcess() -> Set<String> {
    var inodes = Set<String>()
    guard let directory = opendir("/proc/self/fd") else { return inodes }
    defer { closedir(directory) }
    var target = [CChar](repeating: 0, count: 64)
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let length = readlink("/proc/self/fd/" + name, &target, target.count - 1)
        guard length > 0 else { continue }
        let link = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("socket:["), link.hasSuffix("]") { inodes.insert(String(link.dropFirst(8).dropLast())) }
    }
    return inodes
}

extension NGHTTP2EngineTests {
    @Test func aHeaderValueWithCRLFIsRefusedBeforeAnythingIsSent() async throws {
        let error = try await Fixtures.failure(
            of: HTTPClientRequest(
                url: "https://127.0.0.1:1/3/device/x", headers: [("apns-topic", "com.example\r\nx-evil: 1")]),
            engine: .nghttp2)
        #expect(
            error?.kind == .invalidRequest,
            "refused before connecting (nothing listens on port 1): \(String(describing: error))")
        #expect(error?.message.contains("'apns-topic'") == true)
        #expect(error?.isRetryable == false)
    }

    @Test func aSecondConnectionOpensOnlyWhenTheFirstIsFullNotWhileItStarts() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: .nghttp2, connections: 3),
                logger: Fixtures.logger
            ) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<20 {
                        group.addTask {
                            _ = try await client.send(
                                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/\(index)", body: [1]))
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(
                    establishedConnections(toPort: server.port) == 1,
                    "20 requests fit the first connection's streams: no second one while it was starting")
            }
        }
    }
}

extension NGHTTP2EngineTests {
    @Test func extraConnectionsOpenedForABurstCloseWhenIdleAndTheFirstStays() async throws {
        let pki = try await Fixtures.pki.get()
        let recorder = ConnectionRecorder()
        let server = try Fixtures.streamLimitedServer(pki, streams: 10, recorder: recorder)
        var configuration = Fixtures.clientConfiguration(
            pki, engine: .nghttp2, connections: HTTPClientConfiguration.Engine.nghttp2.automaticConnections)
        configuration.extraConnectionIdleTimeout = .milliseconds(300)
        try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                let url = "https://127.0.0.1:\(server.port)/burst"
                _ = try await client.send(HTTPClientRequest(url: url, body: [1]))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<60 {
                        group.addTask { _ = try await client.send(HTTPClientRequest(url: url, body: [1])) }
                    }
                    try await group.waitForAll()
                }
                let opened = recorder.connectionIDs.count
                #expect(opened >= 2, "60 requests at 10 streams a connection opened extra connections: \(opened)")
                // Three times the idle timeout (the loop looks every 20 ms while busy, about once a second idle).
                var open = establishedConnections(toPort: server.port)
                _ = await eventually(every: .milliseconds(100)) {
                    open = establishedConnections(toPort: server.port)
                    return open <= 1
                }
                #expect(open == 1, "the idle extras closed, one connection stays: \(open) of \(opened) open")
                #expect(client.statistics.pools.first?.connections == 1, "the pool says so: \(client.statistics.pools)")
                let status = try await client.send(HTTPClientRequest(url: url, body: [1])).status
                #expect(status == 200)
                #expect(recorder.connectionIDs.count == opened, "the next request used the connection that stayed")
            }
        }
    }
}
