import HeraldCore
import HeraldSystem
import Synchronization

/// FCM HTTP v1 `messages:send`, simulated: checks the bearer token issued by
/// `OAuthSimulatorService`, the project and the message the way FCM does,
/// answers with FCM's status codes and error bodies (FcmError `errorCode`
/// details), and records every accepted message; a message to the probe
/// topic is recorded as a probe.
///
/// Per-token errors, the probe topic, quota, faults and latency come from
/// `FCMSimulatorSettings`, changeable while running (`update`). The quota is
/// counted per project, as Google counts it: each project in the request
/// path has its own window.
public final class FCMSimulatorService: SimulatorService {
    public let name = "fcm"
    public let tokens: SimulatedAccessTokens
    public let recorder: NotificationRecorder
    private let state: Locked<(settings: FCMSimulatorSettings, quota: QuotaWindows)>
    private let random: @Sendable () -> Double
    private let sequence = Atomic<UInt64>(0)

    /// - Parameter random: a number in 0..<1 per request, deciding injected faults (injected for tests).
    public init(
        settings: FCMSimulatorSettings, tokens: SimulatedAccessTokens, recorder: NotificationRecorder,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        state = Locked((settings, QuotaWindows()))
        self.tokens = tokens
        self.recorder = recorder
        self.random = random
    }

    public var settings: FCMSimulatorSettings { state.withLock { $0.settings } }

    /// Changes the behaviour while serving (mark a token dead, start faults, ...).
    public func update(_ change: (inout FCMSimulatorSettings) -> Void) {
        state.withLock { change(&$0.settings) }
    }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path.hasPrefix("/v1/projects/") && request.path.hasSuffix("/messages:send")
    }

    /// The `message`'s token (or FID), topic or condition, read from the body without
    /// the validator's checks (a refused body still names its target when it can).
    public func addressee(of request: SimulatedRequest) -> SimulatedAddressee? {
        guard let message = (try? JSONValue.parse(request.body))?["message"]?.objectValue else { return nil }
        for field in ["token", "fid", "topic", "condition"] {
            guard let value = message[field]?.stringValue else { continue }
            return addressee(targetField: field, value: value, probeTopic: settings.probeTopic)
        }
        return nil
    }

    public func reason(ofErrorBody body: [UInt8]) -> String? {
        GoogleAPIError.reason(in: body)
    }

    /// Google's answer to an injected fault: 429 QUOTA_EXCEEDED (the
    /// project's quota) and 503 UNAVAILABLE with `Retry-After`, 500 INTERNAL.
    public func injectedError(status: Int) -> SimulatedAnswer {
        let settings = self.settings
        let error =
            switch status {
            case 429: FCMSimulatedErrors.quotaExceeded(retryAfter: settings.retryAfter)
            case 503: FCMSimulatedErrors.unavailable(retryAfter: settings.retryAfter)
            default: FCMSimulatedErrors.internalError
            }
        return error.answer(delay: settings.latency)
    }

    private func addressee(targetField: String, value: String, probeTopic: String) -> SimulatedAddressee {
        SimulatedAddressee(
            target: value, token: targetField == "token" || targetField == "fid" ? value : nil,
            topic: targetField == "topic" ? value : nil,
            probe: targetField == "topic" && value == probeTopic)
    }

    /// The `Simulator` counts the answer (`fcm.200`, `fcm.404`, ...) and records a refusal.
    public func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        let settings = self.settings
        switch process(request, settings: settings) {
        case .success(let name):
            let body: JSONValue = ["name": .string(name)]
            return .respond(
                status: 200, headers: [("content-type", "application/json; charset=UTF-8")], body: body.serialized,
                delay: settings.latency)
        case .failure(let error):
            return error.answer(delay: settings.latency)
        }
    }

    /// The scope FCM's own documentation gives for sending.
    public static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    /// The scopes `messages:send` accepts a token for (the REST reference's
    /// "Authorization scopes": firebase.messaging or cloud-platform).
    static let sendScopes: Set<String> = [messagingScope, "https://www.googleapis.com/auth/cloud-platform"]

    /// The message name of an accepted message, or FCM's error answer.
    private func process(_ request: SimulatedRequest, settings: FCMSimulatorSettings) -> Result<String, GoogleAPIError>
    {
        guard request.method == "POST" else {
            return .failure(
                GoogleAPIError(code: 405, status: "METHOD_NOT_ALLOWED", message: "messages:send takes POST"))
        }
        guard let bearer = request.header("authorization").flatMap(Self.bearerToken),
            let grant = tokens.grant(for: bearer, at: request.receivedAt)
        else {
            return .failure(FCMSimulatedErrors.unauthenticated)
        }
        guard !grant.scopes.isDisjoint(with: Self.sendScopes) else {
            return .failure(FCMSimulatedErrors.insufficientScopes)
        }
        let project = String(request.path.dropFirst("/v1/projects/".count).dropLast("/messages:send".count))
        // Google checks the caller's permission on the project before the project's
        // existence (AIP-211), so a project that does not exist and another account's
        // project get the same 403.
        guard settings.projectIDs.contains(project), grant.projectID.map({ $0 == project }) ?? true else {
            return .failure(FCMSimulatedErrors.permissionDenied(project: project))
        }
        let accepted: FCMMessageValidator.Accepted
        switch FCMMessageValidator.validate(request.body) {
        case .success(let valid): accepted = valid
        case .failure(let error): return .failure(error)
        }
        if let fault = injectedFault(settings) { return .failure(fault) }
        if let quota = settings.quota,
            let wait = state.withLock({ $0.quota.admit(project: project, at: request.receivedAt, quota: quota) })
        {
            return .failure(FCMSimulatedErrors.quotaExceeded(retryAfter: wait))
        }
        if let error = deviceError(accepted.targetField, accepted.targetValue, settings: settings) {
            return .failure(error)
        }
        let probe = addressee(
            targetField: accepted.targetField, value: accepted.targetValue, probeTopic: settings.probeTopic
        ).probe
        let name: String
        if accepted.validateOnly {
            // Checked as if sent, delivered nowhere: recorded only when it is a probe.
            name = "projects/\(project)/messages/fake_message_id"
            guard probe else { return .success(name) }
        } else {
            let number = sequence.add(1, ordering: .relaxed).newValue
            name =
                "projects/\(project)/messages/0:\(request.receivedAt.millisecondsSinceEpoch)%\(String(number, radix: 16))"
        }
        recorder.record(
            RecordedNotification(
                provider: self.name, target: accepted.targetValue, headers: [:], payload: .object(accepted.message),
                messageID: name, receivedAt: request.receivedAt, probe: probe,
                addressee: SimulatedAddressee(
                    target: accepted.targetValue,
                    token: (accepted.message["token"] ?? accepted.message["fid"])?.stringValue,
                    topic: accepted.message["topic"]?.stringValue, probe: probe)))
        return .success(name)
    }

    private func injectedFault(_ settings: FCMSimulatorSettings) -> GoogleAPIError? {
        guard settings.internalErrorRate > 0 || settings.unavailableRate > 0 else { return nil }
        let draw = random()
        if draw < settings.internalErrorRate { return FCMSimulatedErrors.internalError }
        if draw < settings.internalErrorRate + settings.unavailableRate {
            return FCMSimulatedErrors.unavailable(retryAfter: settings.retryAfter)
        }
        return nil
    }

    /// FCM's answer about the device a `token` or `fid` target names: not
    /// well-formed, or its entry in `tokenErrors`, which names devices by
    /// either address (an app installation dies with its token and its FID
    /// alike). Topics and conditions get none.
    private func deviceError(_ field: String, _ address: String, settings: FCMSimulatorSettings) -> GoogleAPIError? {
        switch field {
        case "token": if !Self.isWellFormedToken(address) { return FCMSimulatedErrors.invalidRegistrationToken }
        case "fid": if !Self.isWellFormedFID(address) { return FCMSimulatedErrors.invalidFID }
        default: return nil
        }
        return settings.tokenErrors[address]?.error(retryAfter: settings.retryAfter)
    }

    /// Registration tokens are URL-safe text: letters, digits, `-`, `_`, `:`, `.`.
    static func isWellFormedToken(_ token: String) -> Bool {
        token.utf8.allSatisfy { byte in
            Base64URL.isAlphabet(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
    }

    /// The lengths of the FIDs Google's SDKs issue: 22 characters (the format
    /// of 2019 on) and 11 (an Instance ID an Android app kept as its FID).
    static let fidLengths: Set<Int> = [22, 11]

    /// A FID is URL-safe base64 without padding, of one of ``fidLengths``
    /// (docs/fcm.md, "FID targets").
    static func isWellFormedFID(_ fid: String) -> Bool {
        fidLengths.contains(fid.utf8.count) && Base64URL.isUnpadded(fid)
    }

    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}

/// What Google's front ends do with a connection, for the FCM and OAuth
/// simulators: HTTP/1.1 is served as well as HTTP/2 (google-auth's default
/// `requests` transport and firebase-admin use HTTP/1.1), and an HTTP/2
/// connection carries at most 100 concurrent streams.
enum GoogleFrontEndLimits {
    /// SETTINGS_MAX_CONCURRENT_STREAMS on fcm.googleapis.com and oauth2.googleapis.com.
    static let maxConcurrentStreams = 100
}

extension FCMSimulatorService {
    public var initialStreamLimit: SimulatorStreamLimit { .streams(GoogleFrontEndLimits.maxConcurrentStreams) }
}

extension OAuthSimulatorService {
    public var initialStreamLimit: SimulatorStreamLimit { .streams(GoogleFrontEndLimits.maxConcurrentStreams) }
}
