import HeraldCore
import HeraldSystem

/// The APNs side of `herald simulate`: answers `POST /3/device/<token>` the
/// way Apple does, checking authentication, headers, payload and token, and
/// records every accepted notification.
///
/// Checks run in Apple's order of concern: method and path, duplicate
/// headers, authentication, topic, push type, priority, expiration,
/// collapse id, apns-id, payload, device token (its format, the all-zero
/// probe token, then its environment), dead tokens, rate limit.
public final class APNsSimulatorService: SimulatorService {
    public let name = "apns"
    public let configuration: APNsSimulatorConfiguration
    private let recorder: NotificationRecorder
    private let verifier: APNsProviderTokenVerifier
    private let state = Locked(APNsSimulatorState())
    private let deadTokens: Locked<[String: Timestamp]>

    public init(configuration: APNsSimulatorConfiguration, recorder: NotificationRecorder) {
        self.configuration = configuration
        self.recorder = recorder
        verifier = APNsProviderTokenVerifier(keys: configuration.keys, maxAge: configuration.providerTokenMaxAge)
        deadTokens = Locked(configuration.deadTokens)
    }

    /// The token `herald check --online` probes credentials with: 32 zero
    /// bytes, a token no device has. Apple answers it 400 BadDeviceToken once
    /// the credentials pass; the simulator does the same and records it as a probe.
    public static let probeToken = String(repeating: "0", count: 64)

    /// Marks `token` dead from `since` on: later sends get 410 Unregistered.
    public func markDead(_ token: String, since: Timestamp) {
        deadTokens.withLock { $0[token.lowercased()] = since }
    }

    /// Makes a dead `token` live again (an app reinstalled): later sends are
    /// accepted. Returns whether it was dead.
    @discardableResult
    public func markAlive(_ token: String) -> Bool {
        deadTokens.withLock { $0.removeValue(forKey: token.lowercased()) != nil }
    }

    /// The dead tokens (lower-case hex) with the time each became invalid.
    public var currentDeadTokens: [String: Timestamp] { deadTokens.withLock { $0 } }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path.hasPrefix("/3/")
    }

    /// The device token of the path and the `apns-topic`; the all-zero token is a probe.
    public func addressee(of request: SimulatedRequest) -> SimulatedAddressee? {
        guard let token = try? Self.deviceToken(inPath: request.path) else { return nil }
        return SimulatedAddressee(
            target: token, token: token, topic: request.header("apns-topic"), probe: token == Self.probeToken,
            tokenIgnoresCase: true)
    }

    public func reason(ofErrorBody body: [UInt8]) -> String? {
        APNsSimulatorRejection.reason(in: body)
    }

    public func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        // Apple answers with "the same value found in the apns-id field of the
        // request's header" (docs/apns.md): echoed byte for byte, since clients
        // match answers to requests by comparing it with the id they sent.
        let apnsID = request.header("apns-id") ?? APNsSimulatorID.random()
        do {
            let notification = try check(request, apnsID: apnsID)
            recorder.record(notification)
            return .respond(status: 200, headers: [("apns-id", apnsID)], body: [], delay: nil)
        } catch {
            return Self.answer(error, apnsID: apnsID)
        }
    }

    /// An APNs-shaped error answer (Apple sends `apns-id` with errors too).
    static func answer(_ rejection: APNsSimulatorRejection, apnsID: String) -> SimulatedAnswer {
        .respond(
            status: rejection.status, headers: [("apns-id", apnsID), ("content-type", "application/json")],
            body: rejection.body, delay: nil)
    }

    /// Apple's answer to an injected server error: 500 InternalServerError,
    /// 503 ServiceUnavailable, 429 TooManyRequests.
    public func injectedError(status: Int) -> SimulatedAnswer {
        let reason =
            switch status {
            case 429: "TooManyRequests"
            case 503: "ServiceUnavailable"
            default: "InternalServerError"
            }
        return Self.answer(APNsSimulatorRejection(status, reason), apnsID: APNsSimulatorID.random())
    }

    private func check(_ request: SimulatedRequest, apnsID: String) throws(APNsSimulatorRejection)
        -> RecordedNotification
    {
        guard request.method == "POST" else { throw APNsSimulatorRejection(405, "MethodNotAllowed") }
        let token = try Self.deviceToken(inPath: request.path)
        try Self.checkDuplicateHeaders(request)
        let bundleID = try authenticate(request)
        let pushType = try Self.pushType(request)
        try checkTopic(request, pushType: pushType, authenticatedBundleID: bundleID)
        try Self.checkPriority(request, pushType: pushType)
        try Self.checkExpiration(request, now: request.receivedAt)
        try Self.checkCollapseID(request)
        try Self.checkMessageID(request)
        let payload = try Self.checkPayload(request.body, pushType: pushType)
        try Self.checkTokenFormat(token)
        if token == Self.probeToken { throw APNsSimulatorRejection.badRequest("BadDeviceToken") }
        if let home = configuration.tokenEnvironments[token.lowercased()], home != configuration.environment {
            throw APNsSimulatorRejection.badRequest("BadDeviceToken")
        }
        if let since = deadTokens.withLock({ $0[token.lowercased()] }) {
            throw APNsSimulatorRejection(410, "Unregistered", timestamp: since)
        }
        try state.withLock { (state) throws(APNsSimulatorRejection) in
            try state.countSend(
                to: token.lowercased(), at: request.receivedAt, limit: configuration.perTokenLimit,
                window: configuration.perTokenWindow)
        }
        var headers = request.apnsHeaders
        headers["apns-id"] = apnsID
        return RecordedNotification(
            provider: name, target: token, headers: headers, payload: payload, messageID: apnsID,
            receivedAt: request.receivedAt,
            addressee: SimulatedAddressee(
                target: token, token: token, topic: headers["apns-topic"], tokenIgnoresCase: true))
    }

    /// Token auth (JWT) when an `authorization` header is present, else the
    /// client certificate; returns the certificate's bundle id for certificate auth.
    private func authenticate(_ request: SimulatedRequest) throws(APNsSimulatorRejection) -> String? {
        if let authorization = request.header("authorization") {
            let verified = try verifier.verify(authorization: authorization, at: request.receivedAt)
            let interval = configuration.minimumTokenUpdateInterval
            try state.withLock { (state) throws(APNsSimulatorRejection) in
                try state.acceptToken(
                    authorization, team: verified.teamID, issuedAt: verified.issuedAt, interval: interval)
            }
            return nil
        }
        guard let subject = request.clientCertificateSubject else {
            throw APNsSimulatorRejection.forbidden("MissingProviderToken")
        }
        guard let bundleID = Self.bundleID(fromCertificateSubject: subject) else {
            throw APNsSimulatorRejection.forbidden("BadCertificate")
        }
        return bundleID
    }

    private func checkTopic(
        _ request: SimulatedRequest, pushType: APNsSimulatorPushType, authenticatedBundleID: String?
    ) throws(APNsSimulatorRejection) {
        guard let topic = request.header("apns-topic") else {
            // Certificate auth: the topic defaults to the certificate's bundle id.
            if authenticatedBundleID != nil { return }
            throw APNsSimulatorRejection.badRequest("MissingTopic")
        }
        guard !topic.isEmpty, topic.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw APNsSimulatorRejection.badRequest("BadTopic")
        }
        let suffix = pushType.topicSuffix
        guard topic.hasSuffix(suffix) else { throw APNsSimulatorRejection.badRequest("BadTopic") }
        let bundle = String(topic.dropLast(suffix.count))
        // A topic carrying another push type's suffix does not fit this push type.
        let otherSuffixes = APNsSimulatorPushType.allCases.map(\.topicSuffix).filter { !$0.isEmpty && $0 != suffix }
        if otherSuffixes.contains(where: { bundle.hasSuffix($0) }) {
            throw APNsSimulatorRejection.badRequest("BadTopic")
        }
        if let authenticatedBundleID {
            guard bundle == authenticatedBundleID else { throw APNsSimulatorRejection.badRequest("TopicDisallowed") }
        } else if !configuration.bundleIDs.isEmpty, !configuration.bundleIDs.contains(bundle) {
            throw APNsSimulatorRejection.badRequest("TopicDisallowed")
        }
    }

    /// The bundle id an APNs certificate is for: its `UID`, else its `CN`
    /// without Apple's `Apple Push Services: ` style prefix.
    public static func bundleID(fromCertificateSubject subject: String) -> String? {
        let parts = subject.split(separator: ",").map { $0.trimmingPrefix(" ") }
        func value(_ key: String) -> String? {
            parts.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        if let uid = value("UID"), !uid.isEmpty { return uid }
        guard let cn = value("CN"), !cn.isEmpty else { return nil }
        if let colon = cn.lastIndex(of: ":") { return String(cn[cn.index(after: colon)...]).trimmingPrefix(" ") }
        return cn
    }
}

extension Substring {
    fileprivate func trimmingPrefix(_ character: Character) -> String { String(drop { $0 == character }) }
}

extension String {
    fileprivate func trimmingPrefix(_ character: Character) -> String { String(drop { $0 == character }) }
}
