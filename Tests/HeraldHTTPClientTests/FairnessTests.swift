import Glibc
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// Fair sharing of one libcurl client between senders (Herald: the Web Push
/// apps): a sender's share of the window, the per-origin cap, and the reason
/// a request that never got a connection fails with. The "hung" endpoints
/// are a `LoopbackListener` that never accepts: connections complete in its
/// backlog (or wait for room in it) and the TLS handshake is never answered.
@Suite struct FairnessTests {
    /// The one place these tests make a client's configuration: libcurl,
    /// HTTP/1.1 allowed (as Web Push's), trusting the test CA, hung
    /// connections held for a minute (they never free a slot during a test).
    static func configuration(
        _ pki: TestPKI, window: Int, fairness: HTTPClientFairness?, connections: Int = 4
    ) -> HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: connections, requestTimeout: .seconds(60), connectTimeout: .seconds(60),
            maxInFlightRequests: window, tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath),
            engine: .libcurl)
        configuration.acceptsHTTP1 = true
        configuration.fairness = fairness
        return configuration
    }

    /// Waits (at most 30 s, which only a failure reaches) until `listener`
    /// has a connection in its backlog, and takes it: the client's loop took
    /// the request and libcurl connected. The caller closes the descriptor.
    static func acceptConnection(_ listener: LoopbackListener) async throws -> Int32 {
        var accepted: Int32 = -1
        let connected = await eventually(timeout: .seconds(30)) {
            var entry = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&entry, 1, 0) == 1 else { return false }
            accepted = accept(listener.descriptor, nil, nil)
            return accepted >= 0
        }
        guard connected else { throw TestFailure("the client never connected to the hung listener") }
        return accepted
    }

    /// Sends `request` and returns the error it failed with (nil: answered).
    static func failure(of request: HTTPClientRequest, on client: HTTPClient) async -> HTTPClientError? {
        do {
            _ = try await client.send(request)
            return nil
        } catch let error as HTTPClientError {
            return error
        } catch {
            return HTTPClientError(kind: .other, host: "", message: "\(error)")
        }
    }

    @Test func aSenderWhoseEndpointsNeverAnswerDoesNotDelayAnotherSender() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        guard let hung = LoopbackListener() else { throw TestFailure("no loopback listener") }
        // A window of 2 048 requests, half of it each sender's share, and 2 100 requests to
        // endpoints that never answer: more than the whole window. The flood is capped at
        // 2 100 requests to its origin, so the 50 sent beyond come back refused at once: the
        // proof that the loop has taken all of them before the other sender's request.
        let flood = 2100
        let beyond = 50
        let fairness = HTTPClientFairness(tenantWindow: 1024, maxQueuedPerOrigin: flood)
        let elapsed = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Self.configuration(pki, window: 2048, fairness: fairness), logger: Fixtures.logger
            ) { client in
                try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
                    for index in 0..<(flood + beyond) {
                        group.addTask {
                            await Self.failure(
                                of: HTTPClientRequest(
                                    url: "https://127.0.0.1:\(hung.port)/subscription/\(index)", tenant: "flood"),
                                on: client)
                        }
                    }
                    // Refusals come back at once; the 2 100 others hang for a minute.
                    for _ in 0..<beyond {
                        let refused = try await group.next() ?? nil
                        #expect(refused?.kind == .originQueueFull, "got \(String(describing: refused))")
                    }
                    // The other sender's push service answers at once. Unfairly shared, the
                    // window is full of the flood's requests for their whole minute and this
                    // request fails after its own 10 s queued; fairly, it has its own share.
                    let clock = ContinuousClock()
                    let start = clock.now
                    let response = try await client.send(
                        HTTPClientRequest(
                            url: "https://127.0.0.1:\(server.port)/quiet", timeout: .seconds(10), tenant: "quiet"))
                    let elapsed = clock.now - start
                    #expect(response.status == 200)
                    client.shutdown()
                    var shutDown = 0
                    for try await error in group where error?.kind == .shutdown { shutDown += 1 }
                    #expect(shutDown == flood, "the flood's requests were still waiting when the client stopped")
                    return elapsed
                }
            }
        }
        // Answered within its 10 s timeout, long before the flood's 60 s would free a slot.
        #expect(elapsed < .seconds(10), "the other sender waited \(elapsed)")
        hung.close()
    }

    @Test func aRequestOverThePerOriginCapFailsAtOnceRetryablyAndOtherOriginsAreServed() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        guard let hung = LoopbackListener() else { throw TestFailure("no loopback listener") }
        let fairness = HTTPClientFairness(tenantWindow: 64, maxQueuedPerOrigin: 3)
        try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Self.configuration(pki, window: 128, fairness: fairness), logger: Fixtures.logger
            ) { client in
                try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            await Self.failure(
                                of: HTTPClientRequest(
                                    url: "https://127.0.0.1:\(hung.port)/\(index)", tenant: "chat"), on: client)
                        }
                    }
                    // Three hang for a minute; the two over the cap come back at once.
                    for _ in 0..<2 {
                        let refused = try await group.next() ?? nil
                        #expect(refused?.kind == .originQueueFull, "got \(String(describing: refused))")
                        #expect(refused?.isRetryable == true)
                        #expect(refused?.requestWritten == false)
                        #expect(
                            refused?.message
                                == "3 requests of this sender to 127.0.0.1:\(hung.port) are already in flight "
                                + "or queued (the per-origin cap); nothing was sent, try again later")
                    }
                    // The cap is per origin: the same sender's other push service is served.
                    let response = try await client.send(
                        HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/", tenant: "chat"))
                    #expect(response.status == 200)
                    client.shutdown()
                    for try await error in group { #expect(error?.kind == .shutdown) }
                }
            }
        }
        hung.close()
    }

    @Test(arguments: [false, true]) func aRequestQueuedInTheClientUntilItsTimeoutSaysSo(fair: Bool) async throws {
        let pki = try await Fixtures.pki.get()
        guard let hung = LoopbackListener() else { throw TestFailure("no loopback listener") }
        // A window of one request, held by a request to the hung listener.
        let fairness = fair ? HTTPClientFairness(tenantWindow: 1, maxQueuedPerOrigin: 10) : nil
        try await HTTPClient.withClient(
            configuration: Self.configuration(pki, window: 1, fairness: fairness), logger: Fixtures.logger
        ) { client in
            try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
                group.addTask {
                    await Self.failure(
                        of: HTTPClientRequest(url: "https://127.0.0.1:\(hung.port)/held", tenant: "chat"), on: client)
                }
                let held = try await Self.acceptConnection(hung)
                defer { Glibc.close(held) }
                let queued = await Self.failure(
                    of: HTTPClientRequest(
                        url: "https://127.0.0.1:\(hung.port)/queued", timeout: .milliseconds(300), tenant: "chat"),
                    on: client)
                #expect(queued?.kind == .timeout && queued?.isRetryable == true && queued?.requestWritten == false)
                let message = queued?.message ?? ""
                #expect(message.hasPrefix("queued "), "\(message)")
                #expect(
                    message.hasSuffix(
                        " behind other requests; no connection to 127.0.0.1:\(hung.port) was free "
                            + "before the 0.3 s timeout, nothing was sent"), "\(message)")
                client.shutdown()
                for try await error in group { #expect(error?.kind == .shutdown) }
            }
        }
        hung.close()
    }

    @Test func aRequestThatWaitedInLibcurlForAConnectionSaysSoNotThatItsHostDidNotResolve() async throws {
        let pki = try await Fixtures.pki.get()
        guard let hung = LoopbackListener() else { throw TestFailure("no loopback listener") }
        // One connection per host, held by a request whose TLS handshake is never answered:
        // the next request to that host waits inside libcurl for a connection.
        try await HTTPClient.withClient(
            configuration: Self.configuration(pki, window: 16, fairness: nil, connections: 1), logger: Fixtures.logger
        ) { client in
            try await withThrowingTaskGroup(of: HTTPClientError?.self) { group in
                group.addTask {
                    await Self.failure(of: HTTPClientRequest(url: "https://127.0.0.1:\(hung.port)/held"), on: client)
                }
                let held = try await Self.acceptConnection(hung)
                defer { Glibc.close(held) }
                let queued = await Self.failure(
                    of: HTTPClientRequest(url: "https://127.0.0.1:\(hung.port)/queued", timeout: .milliseconds(500)),
                    on: client)
                #expect(queued?.kind == .timeout && queued?.isRetryable == true && queued?.requestWritten == false)
                let message = queued?.message ?? ""
                #expect(!message.contains("resolve"), "libcurl's resolver text is not the reason: \(message)")
                #expect(message.hasPrefix("queued "), "\(message)")
                #expect(
                    message.hasSuffix(
                        " behind other requests; no connection to 127.0.0.1:\(hung.port) was free "
                            + "before the 0.5 s timeout, nothing was sent"), "\(message)")
                client.shutdown()
                for try await error in group { #expect(error?.kind == .shutdown) }
            }
        }
        hung.close()
    }
}
