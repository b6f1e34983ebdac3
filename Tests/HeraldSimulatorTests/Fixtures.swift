import Foundation
import HeraldAPNs
import HeraldCore
import HeraldCrypto
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSimulator
import HeraldSimulatorTestSupport
import HeraldSystem
import HeraldTestSupport

/// Shared material: the simulators' throwaway PKI, the team and key ids, a quiet logger.
enum Fixtures {
    static var pki: SharedFixture<TestPKI, TestPKIError> { SimulatorServer.sharedPKI }
    static let logger = Logger(label: "test", level: .warning, sink: MemoryLogSink())
    static let teamID = "HERALDTEAM"
    static let keyID = "HERALDKEY1"
    static let bundleID = "com.example.chat"
    static let token = String(repeating: "0a", count: 32)

    /// A signing key and the simulator's view of it.
    static func key(keyID: String = keyID, teamID: String = teamID) throws -> (PrivateKey, APNsSimulatorKey) {
        let key = try PrivateKey.generateP256()
        return (key, APNsSimulatorKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey))
    }

}

/// A running simulator (a `SimulatorServer`) a test talks to, with its admin
/// API under `/_herald/` as `herald simulate` has it.
struct RunningSimulator: Sendable {
    let running: SimulatorServer
    var server: HTTP2Server { running.server }
    var simulator: Simulator { running.simulator }
    let apns: APNsSimulatorService
    /// The simulated FCM and its OAuth endpoint, when the test asked for them (`withSimulator(fcm:)`).
    let fcm: FCMSimulatorService?
    let faults: FaultInjector
    let recorder: NotificationRecorder
    let pki: TestPKI
    var baseURL: String { running.baseURL }
}

/// Runs a simulator around `body` and stops it afterwards; with `fcm`, it
/// serves FCM and OAuth for `FCMFixture`'s service account too.
func withSimulator<R: Sendable>(
    _ configuration: APNsSimulatorConfiguration, faults: SimulatorFaults = .none,
    acceptClientCertificates: Bool = false,
    recordTo file: String? = nil, recorder: NotificationRecorder? = nil, extraServices: [any SimulatorService] = [],
    fcm fcmSettings: FCMSimulatorSettings? = nil,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }, _ body: (RunningSimulator) async throws -> R
) async throws -> R {
    let recorder = recorder ?? NotificationRecorder(jsonLinesPath: file)
    let apns = APNsSimulatorService(configuration: configuration, recorder: recorder)
    var services: [any SimulatorService] = [apns] + extraServices
    var fcm: FCMSimulatorService?
    if let fcmSettings {
        let (oauth, messages) = try FCMFixture.services(fcmSettings, recorder: recorder)
        services += [oauth, messages]
        fcm = messages
    }
    let injector = FaultInjector(faults: faults, random: random)
    let admin = SimulatorAdminService(recorder: recorder, faults: injector, services: services)
    let simulator = Simulator(
        services: [admin] + services, recorder: recorder, faults: injector, logger: Fixtures.logger, clock: clock)
    return try await SimulatorServer.with(
        simulator, clientCertificates: acceptClientCertificates, goAwayAfterStreams: faults.goAwayAfterStreams,
        logger: Fixtures.logger
    ) { server in
        try await body(
            RunningSimulator(
                running: server, apns: apns, fcm: fcm, faults: injector, recorder: recorder, pki: server.pki))
    }
}

/// Runs an `APNsProvider` on a real `HTTPClient` pointed at `simulator`.
func withProvider<R: Sendable>(
    _ simulator: RunningSimulator, authentication: APNsAuthentication, bundleID: String = Fixtures.bundleID,
    logger: Logger = Fixtures.logger, requestTimeout: Duration = .seconds(10), _ body: (APNsProvider) async throws -> R
) async throws -> R {
    let configuration = APNsProviderConfiguration(
        bundleID: bundleID, baseURL: simulator.baseURL, authentication: authentication, requestTimeout: requestTimeout,
        caFile: simulator.pki.caCertificatePath, connections: 1)
    return try await HTTPClient.withClient(
        configuration: configuration.httpClientConfiguration, logger: Fixtures.logger
    ) { client in
        try await body(APNsProvider(configuration: configuration, client: client, logger: logger))
    }
}

/// Token auth with `key` and the fixtures' ids; `clock` defaults to the real time.
func tokenAuth(
    _ key: PrivateKey, keyID: String = Fixtures.keyID, clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
) throws -> (APNsAuthentication, ProviderTokenManager) {
    let manager = ProviderTokenManager(
        signer: try ProviderTokenSigner(key: key, teamID: Fixtures.teamID, keyID: keyID), clock: clock)
    return (.token(manager), manager)
}

func event(
    token: String = Fixtures.token, notification: Event.Notification? = .init(title: "Hi", body: "Hello"),
    data: JSONObject? = nil, pushType: PushType? = nil, contentAvailable: Bool = false, apns: APNsOverrides? = nil
) -> Event {
    var event = Event(
        id: "evt-1", app: "chat", targets: [Target(provider: .apns, address: .token(token))],
        notification: notification,
        data: data, pushType: pushType, contentAvailable: contentAvailable)
    event.apns = apns
    return event
}

func json(_ text: String) -> JSONObject {
    (try? JSONValue.parse(text))?.objectValue ?? JSONObject([("unparseable test literal", .string(text))])
}

/// Delivers and returns the result, or the thrown failure as text.
func deliver(_ provider: APNsProvider, _ event: Event) async -> Result<DeliveryResult, DeliveryFailure> {
    do throws(DeliveryFailure) {
        return .success(try await provider.deliver(event, to: event.targets[0], attempt: 1))
    } catch {
        return .failure(error)
    }
}
