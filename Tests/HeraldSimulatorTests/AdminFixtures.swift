import Foundation
import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldHTTPClient
import HeraldSimulator
import HeraldSystem
import HeraldTestSupport
import Testing

/// One RSA service account the simulated OAuth endpoint knows (generated once
/// per test process), and Herald's `FCMProvider` for it against a running simulator.
enum FCMFixture {
    static let projectID = "herald-sim"
    static let email = "svc@herald-sim.iam.gserviceaccount.com"
    static let keyID = "sim-key-1"
    static let key: Result<PrivateKey, CryptoError> = Result { () throws(CryptoError) -> PrivateKey in
        try PrivateKey.generateRSA()
    }

    /// The simulated OAuth endpoint and FCM for the account, sharing one set of access tokens.
    static func services(
        _ settings: FCMSimulatorSettings, recorder: NotificationRecorder
    ) throws -> (OAuthSimulatorService, FCMSimulatorService) {
        let account = SimulatedServiceAccount(
            clientEmail: email, keyID: keyID, publicKey: try key.get().publicKey, projectID: projectID)
        let tokens = SimulatedAccessTokens()
        return (
            OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: [account]), tokens: tokens),
            FCMSimulatorService(settings: settings, tokens: tokens, recorder: recorder)
        )
    }

    /// The account as Google's JSON key, its `token_uri` on the simulator at `baseURL`.
    static func accountJSON(baseURL: String) throws -> String {
        let object: JSONValue = [
            "type": "service_account", "project_id": .string(projectID), "private_key_id": .string(keyID),
            "private_key": .string(try key.get().pkcs8PEM()), "client_email": .string(email),
            "token_uri": .string(baseURL + "/token"),
        ]
        return object.jsonString
    }

    /// Runs Herald's `FCMProvider` on a real `HTTPClient` against `sim`.
    static func withProvider<R: Sendable>(_ sim: RunningSimulator, _ body: (FCMProvider) async throws -> R) async throws
        -> R
    {
        try await withProvider(baseURL: sim.baseURL, caFile: sim.pki.caCertificatePath, body)
    }

    /// Runs Herald's `FCMProvider` on a real `HTTPClient` against the simulator at `baseURL`.
    static func withProvider<R: Sendable>(
        baseURL: String, caFile: String, projectID: String = projectID, _ body: (FCMProvider) async throws -> R
    ) async throws -> R {
        let account = try ServiceAccount(json: accountJSON(baseURL: baseURL), source: "test")
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: .seconds(10), tls: HTTPClientTLSConfiguration(caFile: caFile))
        return try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
            try await body(
                FCMProvider(
                    projectID: projectID, account: account, endpoint: baseURL, httpClient: client,
                    logger: Fixtures.logger))
        }
    }

    /// An access token FCM accepts, issued directly (for requests made with curl).
    static func bearer(_ sim: RunningSimulator) throws -> String {
        let fcm = try #require(sim.fcm, "the simulator was started without fcm:")
        let account = SimulatedServiceAccount(
            clientEmail: email, keyID: keyID, publicKey: try key.get().publicKey, projectID: projectID)
        return fcm.tokens.issue(for: account, at: Timestamp.now(), lifetime: .seconds(3600))
    }
}

/// Delivers `event` through an `FCMProvider`, a thrown failure as a value.
func deliver(_ provider: FCMProvider, _ event: Event) async -> Result<DeliveryResult, DeliveryFailure> {
    do throws(DeliveryFailure) {
        return .success(try await provider.deliver(event, to: event.targets[0], attempt: 1))
    } catch {
        return .failure(error)
    }
}

/// An FCM event to one token or topic.
func fcmEvent(_ address: Target.Address) -> Event {
    Event(
        id: "evt-fcm", targets: [Target(provider: .fcm, address: address)],
        notification: .init(title: "Hi", body: "Hello"))
}

/// One answer as a client saw it: status, headers, body text.
struct Answer: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: String

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
    var json: JSONValue? { try? JSONValue.parse(body) }
}

/// Calls the admin API (or any path) of `sim` with Herald's `HTTPClient`.
func call(_ sim: RunningSimulator, _ method: String, _ path: String, body: String? = nil) async throws -> Answer {
    let configuration = HTTPClientConfiguration(
        maxConnectionsPerHost: 1, requestTimeout: .seconds(10),
        tls: HTTPClientTLSConfiguration(caFile: sim.pki.caCertificatePath))
    return try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
        let response = try await client.send(
            HTTPClientRequest(
                method: method, url: sim.baseURL + path,
                headers: body == nil ? [] : [("content-type", "application/json")],
                body: Array((body ?? "").utf8)))
        return Answer(
            status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self))
    }
}

/// A request made with `curl --http2` (a client that shares none of our code):
/// its exit status, the status and headers it printed, the body, and curl's own error line.
struct CurlRun: Sendable {
    let exitStatus: Int32
    let answer: Answer?
    let output: String
}

/// Runs `curl --http2` against `sim` off the cooperative pool.
func curl(
    _ sim: RunningSimulator, _ method: String, _ path: String, headers: [String] = [], body: String? = nil,
    maxTime: Int = 10
) async throws -> CurlRun {
    try await curl(
        baseURL: sim.baseURL, caFile: sim.pki.caCertificatePath, method, path, headers: headers, body: body,
        maxTime: maxTime)
}

/// Runs `curl --http2` against the simulator at `baseURL` off the cooperative pool.
func curl(
    baseURL: String, caFile: String, _ method: String, _ path: String, headers: [String] = [], body: String? = nil,
    maxTime: Int = 10
) async throws -> CurlRun {
    let directory = try makeTemporaryDirectory("sim")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var arguments = [
        "-sS", "--http2", "--cacert", caFile, "--max-time", String(maxTime), "-X", method,
        "-D", directory + "/headers", "-o", directory + "/body",
    ]
    for header in headers { arguments += ["-H", header] }
    if let body { arguments += ["--data-binary", body] }
    arguments.append(baseURL + path)
    let run = try await runTool("/usr/bin/curl", arguments)
    let headerText = (try? String(contentsOfFile: directory + "/headers", encoding: .utf8)) ?? ""
    let lines = headerText.split(separator: "\r\n").map(String.init)
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/2 "),
        let status = Int(statusLine.dropFirst(7).prefix(3))
    else {
        return CurlRun(exitStatus: run.status, answer: nil, output: run.output)
    }
    let parsed: [(name: String, value: String)] = lines.dropFirst().compactMap { line in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }
    let bodyText = (try? String(contentsOfFile: directory + "/body", encoding: .utf8)) ?? ""
    return CurlRun(
        exitStatus: run.status, answer: Answer(status: status, headers: parsed, body: bodyText), output: run.output)
}

/// Google's FCM error body, written out as Google sends it (not built with the
/// simulator's code), for comparing a response's bytes.
func fcmErrorBody(status: Int, message: String, googleStatus: String, code: String) -> String {
    """
    {"error":{"code":\(status),"message":"\(message)","status":"\(googleStatus)","details":\
    [{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\(code)"}]}}
    """
}
