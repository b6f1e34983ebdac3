import Foundation
import HeraldCore
import HeraldCrypto
import HeraldHTTP2Server
import HeraldSimulator
import HeraldSimulatorTestSupport
import HeraldTestSupport

/// A real simulator (APNs, FCM, Google OAuth, a Web Push service) served by
/// `SimulatorServer`, with throwaway credentials on disk that a Herald config can point at.
final class SimulatorHarness: Sendable {
    static let teamID = "HERALDTEAM"
    static let keyID = "HERALDKEY1"
    static let project = "herald-test"
    /// The service account's RSA key, shared like the PKI: generating one takes
    /// a core for a noticeable time.
    static let accountKey: SharedFixture<PrivateKey, CryptoError> = SharedFixture {
        () throws(CryptoError) -> PrivateKey in try PrivateKey.generateRSA()
    }

    let directory: String
    /// The CA of every simulator of the test process (`SimulatorServer.sharedPKI`); client certificates
    /// issued from it get file names of their own.
    var pki: TestPKI { main.pki }
    var server: HTTP2Server { main.server }
    private let main: SimulatorServer
    let recorder: NotificationRecorder
    let apns: APNsSimulatorService
    let fcm: FCMSimulatorService
    /// The push service: `issueSubscription()` gives a browser's subscription at it.
    let webpush: WebPushSimulatorService
    /// The application server's VAPID key (PEM), which `webpush` subscriptions may be restricted to.
    let vapidKeyFile: String
    let vapidKey: PrivateKey

    /// A browser's subscription at `webpush`, restricted to `vapidKey` (its `applicationServerKey`).
    func webPushSubscription() throws -> SimulatedWebPushSubscription {
        try webpush.issueSubscription(applicationServerKey: vapidKey.publicKey.uncompressedP256())
    }
    /// Faults in force (none at first): errors, resets, hangs for some services or tokens.
    let faults = FaultInjector(faults: .none)
    let apnsKeyFile: String
    /// The key file (Google's JSON) of `project`'s service account.
    let serviceAccountFile: String
    /// A second APNs simulator playing Apple's sandbox (same key and tokens), when asked for.
    let sandbox: Sandbox?
    /// The server of `webpush` when it speaks HTTP/1.1 only (`webPushOverHTTP1`); else `server` serves it.
    private let http1Server: SimulatorServer?

    /// The connections that carried requests to the HTTP/1.1 push service (nil without one).
    var webPushHTTP1ConnectionsSeen: Int? { http1Server?.simulator.connectionsSeen }

    /// The sandbox APNs host: its server and what it accepted.
    struct Sandbox: Sendable {
        let server: SimulatorServer
        let recorder: NotificationRecorder
        var baseURL: String { server.baseURL }
    }

    /// - Parameters:
    ///   - sandboxAPNsTokens: tokens of the sandbox only: the simulator plays production and answers them BadDeviceToken.
    ///   - tokenUpdateInterval: Apple's rule against a team's new provider token within 20 minutes of its last.
    ///   - sandboxHost: also serve a sandbox APNs host (``sandbox``), where `sandboxAPNsTokens` are good.
    ///   - perTokenLimit: APNs notifications per device token a second; more are answered 429 TooManyRequests.
    ///   - otherFCMProjects: FCM projects served beside `project`, each with a service account of its own
    ///     (``serviceAccountFile(project:)``), for apps on different projects.
    init(
        deadAPNsTokens: [String] = [], deadFCMTokens: [String] = [], sandboxAPNsTokens: [String] = [],
        tokenUpdateInterval: Duration = .zero, sandboxHost: Bool = false, perTokenLimit: Int? = nil,
        otherFCMProjects: [String] = [], webPushOverHTTP1: Bool = false
    ) async throws {
        directory = NSTemporaryDirectory() + "herald-service-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pki = try await SimulatorServer.sharedPKI.get()
        let apnsKey = try PrivateKey.generateP256()
        apnsKeyFile = directory + "/AuthKey.p8"
        try apnsKey.pkcs8PEM().write(toFile: apnsKeyFile, atomically: true, encoding: .utf8)
        let accountKey = try await Self.accountKey.get()

        recorder = NotificationRecorder()
        let dead = Dictionary(uniqueKeysWithValues: deadAPNsTokens.map { ($0, Timestamp(seconds: 1_796_032_800)) })
        apns = APNsSimulatorService(
            configuration: APNsSimulatorConfiguration(
                keys: [APNsSimulatorKey(keyID: Self.keyID, teamID: Self.teamID, publicKey: apnsKey.publicKey)],
                deadTokens: dead, minimumTokenUpdateInterval: tokenUpdateInterval, perTokenLimit: perTokenLimit,
                tokenEnvironments: Dictionary(uniqueKeysWithValues: sandboxAPNsTokens.map { ($0, .sandbox) })),
            recorder: recorder)
        let tokens = SimulatedAccessTokens()
        // One account per project, all on the shared key: an account's access token sends to its own project only.
        let projects = [Self.project] + otherFCMProjects
        let accounts = projects.map { project in
            SimulatedServiceAccount(
                clientEmail: "svc@\(project).iam.gserviceaccount.com", keyID: "key-1",
                publicKey: accountKey.publicKey, projectID: project)
        }
        let oauth = OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: accounts), tokens: tokens)
        fcm = FCMSimulatorService(
            settings: FCMSimulatorSettings(
                projectIDs: Set(projects),
                tokenErrors: Dictionary(
                    deadFCMTokens.map { ($0, .unregistered) }, uniquingKeysWith: { first, _ in first })),
            tokens: tokens, recorder: recorder)
        webpush = WebPushSimulatorService(recorder: recorder)
        vapidKey = try PrivateKey.generateP256()
        vapidKeyFile = directory + "/vapid.pem"
        try vapidKey.pkcs8PEM().write(toFile: vapidKeyFile, atomically: true, encoding: .utf8)
        let logger = Logger(label: "test-simulator", level: .error)
        let simulator = Simulator(
            services: [apns, oauth, fcm] + (webPushOverHTTP1 ? [] : [webpush]), recorder: recorder,
            faults: faults, logger: logger)
        main = try await SimulatorServer(simulator, pki: pki, logger: logger)
        if webPushOverHTTP1 {
            let pushSimulator = Simulator(services: [webpush], recorder: recorder, faults: faults, logger: logger)
            let pushServer = try await SimulatorServer(pushSimulator, pki: pki, offersHTTP2: false, logger: logger)
            http1Server = pushServer
            webpush.serve(at: pushServer.baseURL)
        } else {
            http1Server = nil
            webpush.serve(at: main.baseURL)
        }
        if sandboxHost {
            let sandboxRecorder = NotificationRecorder()
            let service = APNsSimulatorService(
                configuration: APNsSimulatorConfiguration(
                    keys: [APNsSimulatorKey(keyID: Self.keyID, teamID: Self.teamID, publicKey: apnsKey.publicKey)],
                    environment: .sandbox,
                    tokenEnvironments: Dictionary(uniqueKeysWithValues: sandboxAPNsTokens.map { ($0, .sandbox) })),
                recorder: sandboxRecorder)
            let sandboxServer = try await SimulatorServer(
                Simulator(services: [service], recorder: sandboxRecorder, logger: logger), pki: pki, logger: logger)
            sandbox = Sandbox(server: sandboxServer, recorder: sandboxRecorder)
        } else {
            sandbox = nil
        }

        let privateKey = try accountKey.pkcs8PEM()
        for (project, account) in zip(projects, accounts) {
            let accountJSON: JSONValue = [
                "type": "service_account", "project_id": .string(project), "private_key_id": "key-1",
                "private_key": .string(privateKey), "client_email": .string(account.clientEmail),
                "token_uri": .string("\(main.baseURL)/token"),
            ]
            try accountJSON.jsonString.write(
                toFile: Self.accountFile(in: directory, project: project), atomically: true, encoding: .utf8)
        }
        serviceAccountFile = Self.accountFile(in: directory, project: Self.project)
    }

    /// The key file (Google's JSON) of the service account of `project`:
    /// ``project`` or one of the `otherFCMProjects` the harness was made with.
    func serviceAccountFile(project: String) -> String { Self.accountFile(in: directory, project: project) }

    private static func accountFile(in directory: String, project: String) -> String {
        "\(directory)/service-account-\(project).json"
    }

    var baseURL: String { main.baseURL }

    /// Stops the main server abruptly and returns once it no longer listens:
    /// a client started after it finds nothing at the port.
    func stopServer() async {
        await main.stop()
    }

    func stop() {
        main.shutdown()
        sandbox?.server.shutdown()
        http1Server?.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
