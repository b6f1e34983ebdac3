// Fuzzes the simulator's request handling in-process, without sockets: a
// request (method, path, headers, body) goes to the first service that serves
// its path — the admin API, APNs, Google OAuth or FCM, as `herald simulate`
// orders them — and the answer is read back as a client would.
//
// Input (see FuzzMessage): the start line is `METHOD PATH`; headers are the
// request's (names lower-cased, as HTTP/2 delivers them); the body is the
// request body. Three placeholders let inputs get past authentication: in a
// header value or the body, `@apns-jwt@` becomes a valid APNs provider token,
// `@fcm-token@` a valid FCM access token, and `@oauth-assertion@` a signed
// OAuth assertion for the simulated service account.
import FuzzSupport
import HeraldAPNs
import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldSimulator

let issuedAt = Timestamp(seconds: 1_796_000_000)
let receivedAt = issuedAt + .seconds(1)
let teamID = "FUZZTEAM01"
let keyID = "FUZZKEY001"
let bundleID = "com.example.chat"
let projectID = "herald-fuzz"
let email = "fuzz@herald-fuzz.iam.gserviceaccount.com"

/// Keys and credentials, made once: generating and signing per input would be most of the work.
struct Credentials {
    let apnsKey: APNsSimulatorKey
    let apnsJWT: String
    let account: SimulatedServiceAccount
    let assertion: String

    init() {
        do {
            let apns = try PrivateKey.generateP256()
            apnsKey = APNsSimulatorKey(keyID: keyID, teamID: teamID, publicKey: apns.publicKey)
            apnsJWT = try ProviderTokenSigner(key: apns, teamID: teamID, keyID: keyID).sign(issuedAt: issuedAt)
            let rsa = try PrivateKey.generateRSA()
            account = SimulatedServiceAccount(
                clientEmail: email, keyID: "fuzz-key-1", publicKey: rsa.publicKey, projectID: projectID)
            let herald = ServiceAccount(
                projectID: projectID, clientEmail: email, privateKeyID: "fuzz-key-1",
                tokenURI: "https://127.0.0.1:2197/token", privateKey: rsa)
            assertion = try OAuthAssertion.sign(for: herald, issuedAt: issuedAt)
        } catch {
            preconditionFailure("cannot make the fuzz credentials: \(error)")
        }
    }
}

let credentials = Credentials()

func substitute(_ text: String, fcmToken: String) -> String {
    guard text.contains("@") else { return text }
    return text.replacing("@apns-jwt@", with: credentials.apnsJWT)
        .replacing("@fcm-token@", with: fcmToken)
        .replacing("@oauth-assertion@", with: credentials.assertion)
}

FuzzDriver.run { input in
    let message = FuzzMessage(input)
    let start = message.startLine.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
    let method = start.first.map(String.init) ?? ""
    let path = start.count > 1 ? String(start[1]) : "/"

    // Fresh services per input: one input's dead tokens, faults or quota never leak into the next.
    let recorder = NotificationRecorder(capacity: 64)
    let tokens = SimulatedAccessTokens()
    let fcmToken = tokens.issue(for: credentials.account, at: issuedAt, lifetime: .seconds(3600))
    let apns = APNsSimulatorService(
        configuration: APNsSimulatorConfiguration(
            keys: [credentials.apnsKey], bundleIDs: [bundleID],
            deadTokens: [String(repeating: "dd", count: 32): issuedAt],
            perTokenLimit: 3, tokenEnvironments: [String(repeating: "5a", count: 32): .sandbox]),
        recorder: recorder)
    let oauth = OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: [credentials.account]), tokens: tokens)
    let fcm = FCMSimulatorService(
        settings: FCMSimulatorSettings(
            projectIDs: [projectID], tokenErrors: ["fuzz-unregistered": .unregistered], quota: .init(messages: 5)),
        tokens: tokens, recorder: recorder, random: { 0.5 })
    let providers: [any SimulatorService] = [apns, oauth, fcm]
    let admin = SimulatorAdminService(
        recorder: recorder, faults: FaultInjector(faults: .none, random: { 0.5 }), services: providers)
    let services: [any SimulatorService] = [admin] + providers

    let body =
        message.body.contains(UInt8(ascii: "@"))
        ? Array(substitute(String(decoding: message.body, as: UTF8.self), fcmToken: fcmToken).utf8) : message.body
    let request = SimulatedRequest(
        method: method, path: path,
        headers: message.headers.map { (name: $0.name.lowercased(), value: substitute($0.value, fcmToken: fcmToken)) },
        body: body, receivedAt: receivedAt)
    guard let service = services.first(where: { $0.serves(request) }) else { return }
    _ = service.addressee(of: request)
    let answer = service.handle(request)
    _ = service.streamLimit(afterAnswering: request, with: answer)
    switch answer {
    case .respond(let status, _, let answerBody, _), .respondThenGoAway(let status, _, let answerBody, _):
        precondition((100...599).contains(status), "status \(status) out of range")
        if status != 200 { _ = service.reason(ofErrorBody: answerBody) }
    case .reset:
        break
    }
    _ = recorder.notifications.count
}
