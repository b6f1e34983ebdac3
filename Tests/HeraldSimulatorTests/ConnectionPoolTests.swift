import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldFCM
import HeraldHTTPClient
import HeraldSimulator
import HeraldSystem
import HeraldTestSupport
import Testing

/// How Herald's connection pool meets each provider's stream limits with
/// `connections: auto`: Google's 100 streams a connection (one until its first
/// answer), Apple's one stream until a provider token is accepted.
@Suite struct ConnectionPoolTests {
    /// The most connections and the busiest connection's streams seen while `body` runs (sampled every 5 ms).
    private func sampling<R: Sendable>(
        _ client: HTTPClient, _ body: () async throws -> R
    ) async throws -> (R, connections: Int, busiest: Int) {
        let peak = Locked((connections: 0, busiest: 0))
        let sampler = Task {
            while !Task.isCancelled {
                for pool in client.statistics.pools {
                    peak.withLock {
                        $0 = (max($0.connections, pool.connections), max($0.busiest, pool.busiestConnection))
                    }
                }
                try? await Task.sleep(for: .milliseconds(5))  // the sampling interval, not a wait for an event
            }
        }
        defer { sampler.cancel() }
        let result = try await body()
        let seen = peak.withLock { $0 }
        return (result, seen.connections, seen.busiest)
    }

    @Test func threeHundredWaitingFCMRequestsOpenAThirdConnectionAndNeverA101stStream() async throws {
        let settings = FCMSimulatorSettings(projectIDs: [FCMFixture.projectID])
        // Each FCM answer waits 3 s, so the requests of the burst are still on
        // their streams while the pool grows, however slowly a loaded machine
        // makes TLS handshakes (the token endpoint answers at once).
        let faults = SimulatorFaults(services: ["fcm"], latency: ConfigDuration(milliseconds: 3000))
        let outcome = try await withSimulator(APNsSimulatorConfiguration(), faults: faults, fcm: settings) { sim in
            let account = try ServiceAccount(json: FCMFixture.accountJSON(baseURL: sim.baseURL), source: "test")
            let configuration = HTTPClientConfiguration(
                maxConnectionsPerHost: HTTPClientConfiguration.Engine.nghttp2.automaticConnections,
                requestTimeout: .seconds(30),
                tls: HTTPClientTLSConfiguration(caFile: sim.pki.caCertificatePath))
            return try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                let provider = FCMProvider(
                    projectID: FCMFixture.projectID, account: account, endpoint: sim.baseURL, httpClient: client,
                    logger: Fixtures.logger)
                // The first connection learns Google's limit (the OAuth answer raises it to 100).
                let first = await deliver(provider, fcmEvent(.token("fcm-warm")))
                #expect((try? first.get())?.status == .delivered, "the warm-up: \(first)")
                let (statuses, connections, busiest) = try await sampling(client) {
                    await withTaskGroup(of: DeliveryResult.Status?.self) { group in
                        for index in 0..<300 {
                            group.addTask {
                                (try? await deliver(provider, fcmEvent(.token("fcm-\(index)"))).get())?.status
                            }
                        }
                        return await group.reduce(into: [DeliveryResult.Status?]()) { $0.append($1) }
                    }
                }
                return (statuses, connections, busiest, client.statistics.goAways, sim.simulator.connectionsSeen)
            }
        }
        let (statuses, connections, busiest, goAways, seen) = outcome
        #expect(
            statuses.count == 300 && statuses.allSatisfy { $0 == .delivered },
            "every request delivered: \(statuses.filter { $0 != .delivered }.count) not")
        #expect(
            seen == 3 && connections == 3,
            "100 on the first, then one more connection at a time while 200 waited: the simulator saw \(seen), the pool held \(connections)"
        )
        #expect(busiest <= 100, "never more than Google's 100 streams on one connection: \(busiest)")
        #expect(busiest > 50, "the connections were filled, not one stream each: \(busiest)")
        #expect(goAways.isEmpty, "no GOAWAY for a stream limit broken: \(goAways)")
    }

    @Test func anAPNsConnectionCarriesOneRequestUntilTheTokenIsAcceptedAndNoSecondOpensMeanwhile() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        // Each answer waits 100 ms: while the limit is 1, the next request cannot arrive sooner.
        let faults = SimulatorFaults(latency: ConfigDuration(milliseconds: 100))
        let (statuses, arrivals, seen, goAways) = try await withSimulator(configuration, faults: faults) { sim in
            let (authentication, _) = try tokenAuth(key)
            let providerConfiguration = APNsProviderConfiguration(
                bundleID: Fixtures.bundleID, baseURL: sim.baseURL, authentication: authentication,
                caFile: sim.pki.caCertificatePath)
            #expect(
                providerConfiguration.connections == HTTPClientConfiguration.Engine.nghttp2.automaticConnections,
                "auto is the default")
            return try await HTTPClient.withClient(
                configuration: providerConfiguration.httpClientConfiguration, logger: Fixtures.logger
            ) { client in
                let provider = APNsProvider(
                    configuration: providerConfiguration, client: client, logger: Fixtures.logger)
                let statuses = await withTaskGroup(of: DeliveryResult.Status?.self) { group in
                    for _ in 0..<100 {
                        group.addTask { (try? await deliver(provider, event()).get())?.status }
                    }
                    return await group.reduce(into: [DeliveryResult.Status?]()) { $0.append($1) }
                }
                return (
                    statuses, sim.recorder.notifications.map(\.receivedAt).sorted(), sim.simulator.connectionsSeen,
                    client.statistics.goAways
                )
            }
        }
        #expect(statuses.count == 100 && statuses.allSatisfy { $0 == .delivered }, "every notification delivered")
        #expect(
            seen == 1,
            "one connection although 64 were allowed: Apple's 1000 streams after the token carry them all, saw \(seen)")
        // The simulator raises the limit when it accepts the token, before its
        // 100 ms answer: the rest follow one round trip after the first.
        try #require(arrivals.count == 100)
        #expect(arrivals[1] > arrivals[0], "the first request went alone: \(arrivals[0]) then \(arrivals[1])")
        let spread = arrivals[99] - arrivals[1]
        #expect(
            spread < .seconds(1),
            "the other 99 followed together once it was accepted (one at a time they take 99 × 100 ms), within \(spread)"
        )
        #expect(goAways.isEmpty, "no GOAWAY for a stream limit broken: \(goAways)")
    }
}
