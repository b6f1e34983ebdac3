import HeraldAPNs
import HeraldCore
import HeraldHTTPClient
import HeraldSimulator
import Testing

/// Transport failures: retryable ones are thrown, ones no retry can fix are `failed`.
@Suite struct TransportFailureTests {
    @Test func untrustedServerCertificateFailsForGood() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let result = try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey])) { sim in
            // No ca_file: the simulator's throwaway CA is not trusted.
            let configuration = APNsProviderConfiguration(
                bundleID: Fixtures.bundleID, baseURL: sim.baseURL, authentication: try tokenAuth(key).0)
            return try await HTTPClient.withClient(
                configuration: configuration.httpClientConfiguration, logger: Fixtures.logger
            ) {
                await deliver(APNsProvider(configuration: configuration, client: $0, logger: Fixtures.logger), event())
            }
        }
        let answered = try result.get()
        #expect(answered.status == .failed)
        #expect(answered.reason?.hasPrefix("certificateRejected: ") == true, "\(answered)")
    }

    @Test func closedPortIsARetryableFailure() async throws {
        let (key, _) = try Fixtures.key()
        let configuration = APNsProviderConfiguration(
            bundleID: Fixtures.bundleID, baseURL: "https://127.0.0.1:1", authentication: try tokenAuth(key).0)
        let result = try await HTTPClient.withClient(
            configuration: configuration.httpClientConfiguration, logger: Fixtures.logger
        ) {
            await deliver(APNsProvider(configuration: configuration, client: $0, logger: Fixtures.logger), event())
        }
        guard case .failure(let failure) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(failure.reason.hasPrefix("connectFailed: "), "\(failure)")
        #expect(failure.providerStatus == nil)
    }
}
