import Glibc
import HeraldCore
import HeraldFCM
import HeraldHTTPClient
import HeraldSimulator
import HeraldSimulatorTestSupport
import HeraldTestSupport

/// Our `FCMProvider` on our `HTTPClient`, talking real TLS HTTP/2 to a
/// `SimulatorServer` serving the simulated FCM and OAuth services, as
/// `herald simulate` serves them.
/// Provider and simulator share one `TestClock`.
struct Harness {
    let provider: FCMProvider
    let fcm: FCMSimulatorService
    let oauth: OAuthSimulatorService
    let tokens: SimulatedAccessTokens
    let recorder: NotificationRecorder
    let clock: TestClock
    let logs: MemoryLogSink
    let logger: Logger
    let httpClient: HTTPClient
    let port: Int

    /// Runs `body` against a fresh simulator and provider.
    static func run<R: Sendable>(
        fcm settings: FCMSimulatorSettings = FCMSimulatorSettings(projectIDs: [TestKeys.projectID]),
        tokenLifetime: Duration = .seconds(3600), projectID: String = TestKeys.projectID,
        random: @escaping @Sendable () -> Double = { 0.5 }, revokeTokensBeforeEachSend: Bool = false,
        _ body: (Harness) async throws -> R
    ) async throws -> R {
        let clock = TestClock()
        let tokens = SimulatedAccessTokens()
        let recorder = NotificationRecorder()
        let oauth = OAuthSimulatorService(
            settings: OAuthSimulatorSettings(accounts: [try TestKeys.simulatedAccount()], tokenLifetime: tokenLifetime),
            tokens: tokens)
        let fcm = FCMSimulatorService(settings: settings, tokens: tokens, recorder: recorder, random: random)
        let logs = MemoryLogSink()
        let logger = Logger(label: "test", level: .debug, sink: logs)
        let simulator = Simulator(
            services: [oauth, revokeTokensBeforeEachSend ? RevokingService(fcm: fcm) : fcm], recorder: recorder,
            logger: logger, clock: clock.closure)
        return try await SimulatorServer.with(
            simulator, shutdownGracePeriod: .seconds(1), logger: logger.child("server")
        ) { server in
            let base = "https://127.0.0.1:\(server.port)"
            let account = try TestKeys.account(tokenURI: base + "/token")
            let configuration = HTTPClientConfiguration(
                maxConnectionsPerHost: 1, requestTimeout: .seconds(20),
                tls: HTTPClientTLSConfiguration(caFile: server.pki.caCertificatePath))
            return try await HTTPClient.withClient(configuration: configuration, logger: logger.child("client")) {
                client in
                let provider = FCMProvider(
                    projectID: projectID, account: account, endpoint: base, httpClient: client, logger: logger,
                    now: clock.closure)
                return try await body(
                    Harness(
                        provider: provider, fcm: fcm, oauth: oauth, tokens: tokens, recorder: recorder, clock: clock,
                        logs: logs,
                        logger: logger, httpClient: client, port: server.port))
            }
        }
    }

    /// Delivers `event` to its first target, turning a thrown `DeliveryFailure` into a value.
    func send(_ event: Event) async -> Result<DeliveryResult, DeliveryFailure> {
        do throws(DeliveryFailure) {
            return .success(try await provider.deliver(event, to: event.targets[0], attempt: 1))
        } catch {
            return .failure(error)
        }
    }

    /// The transient failure delivering `event` throws, without its latency; nil when it does not throw.
    func failure(_ event: Event) async -> DeliveryFailure? {
        guard case .failure(var failure) = await send(event) else { return nil }
        failure.latency = nil
        return failure
    }
}

/// An event to one FCM token (or topic/condition), with whatever else a test sets.
func fcmEvent(
    _ address: Target.Address = .token("fcm-token-1"), notification: Event.Notification? = nil, data: JSONObject? = nil,
    configure: (inout Event) -> Void = { _ in }
) -> Event {
    var event = Event(
        id: "evt-1", targets: [Target(provider: .fcm, address: address)], notification: notification, data: data)
    configure(&event)
    return event
}

/// Simulates Google revoking the service account's tokens between issuing
/// and use: every token is forgotten before FCM sees the request.
struct RevokingService: SimulatorService {
    let fcm: FCMSimulatorService
    var name: String { fcm.name }

    func serves(_ request: SimulatedRequest) -> Bool { fcm.serves(request) }

    func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        fcm.tokens.revokeAll()
        return fcm.handle(request)
    }

    func injectedError(status: Int) -> SimulatedAnswer { fcm.injectedError(status: status) }
}
