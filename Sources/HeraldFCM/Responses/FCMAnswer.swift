import HeraldCore

/// What one `messages:send` answer means, decided from the FcmError
/// `errorCode` first and the HTTP status second (a 403 or 404 without an
/// FcmError is a wrong project or missing permission, not a dead token).
public enum FCMAnswer: Sendable, Equatable {
    /// 200: accepted, with FCM's message name (`projects/p/messages/123`).
    case delivered(messageName: String?)
    /// A definitive answer: `invalid_token` or `failed`.
    case definitive(DeliveryResult)
    /// A transient failure: `retrying`, with the wait the server asked for.
    case transient(DeliveryFailure)
    /// 401 about our access token: evict it, refresh once, send again.
    case unauthenticated(reason: String)

    /// The `failed` reason for THIRD_PARTY_AUTH_ERROR: the code, then where to fix it.
    public static let thirdPartyAuthReason =
        "THIRD_PARTY_AUTH_ERROR: APNs (or Web Push) refused the credentials uploaded to Firebase; "
        + "check the APNs auth key or certificate in the Firebase console (Project settings > Cloud Messaging)"

    /// Classifies an answer to a message sent to `target`.
    public static func classify(
        status: Int, retryAfterHeader: String?, body: [UInt8], target: Target.Address, now: Timestamp
    ) -> FCMAnswer {
        if status == 200 {
            return .delivered(messageName: (try? JSONValue.parse(body))?["name"]?.stringValue)
        }
        let error = FCMErrorBody(parsing: body)
        // Google's status name is kept only when it is a token (ProviderReason); else the status's fallback, its words the detail.
        let (reason, detail) = ProviderReason.reason(
            error.errorCode?.rawValue ?? error.status, fallback: "HTTP \(status)",
            detail: error.detail)
        let aboutToken = error.isAbout(device: target)
        func invalidToken(couldBeMisconfiguration: Bool) -> DeliveryResult {
            DeliveryResult(
                .invalidToken(invalidatedAt: nil), reason: reason, detail: detail, providerStatus: status,
                couldBeMisconfiguration: couldBeMisconfiguration)
        }
        let failed = DeliveryResult(.failed, reason: reason, detail: detail, providerStatus: status)
        func transient() -> FCMAnswer {
            var wait = retryAfterHeader.flatMap { RetryAfter.parse($0, now: now) }
            // Google asks for at least a minute of back-off on quota errors.
            if wait == nil, error.errorCode == .quotaExceeded { wait = .seconds(60) }
            return .transient(
                DeliveryFailure(
                    reason: reason, detail: detail, providerStatus: status, retryAfter: wait,
                    pause: quotaPause(error)))
        }

        switch error.errorCode?.disposition ?? .byHTTPStatus {
        case .invalidToken:
            return .definitive(invalidToken(couldBeMisconfiguration: false))
        case .invalidTokenUnlessMisconfigured:
            return .definitive(invalidToken(couldBeMisconfiguration: true))
        case .invalidTokenIfAboutToken:
            return .definitive(aboutToken ? invalidToken(couldBeMisconfiguration: true) : failed)
        case .retry:
            return transient()
        case .failed:
            if error.errorCode == .thirdPartyAuthError {
                return .definitive(
                    DeliveryResult(.failed, reason: thirdPartyAuthReason, detail: detail, providerStatus: status))
            }
            return .definitive(failed)
        case .byHTTPStatus:
            switch status {
            case 400: return .definitive(aboutToken ? invalidToken(couldBeMisconfiguration: true) : failed)
            case 401: return .unauthenticated(reason: reason)
            case 408, 429, 500...599: return transient()
            default: return .definitive(failed)
            }
        }
    }

    /// QUOTA_EXCEEDED pauses later sends. Google's project quota answer names
    /// its quota metric: the app's FCM sends pause. Any other is one device's
    /// (or topic's) message rate: its sends pause.
    static func quotaPause(_ error: FCMErrorBody) -> SendPause? {
        guard error.errorCode == .quotaExceeded else { return nil }
        if error.detail?.contains("quota metric") == true {
            return SendPause(.app, cause: "FCM project quota exceeded (QUOTA_EXCEEDED)", service: "FCM")
        }
        return SendPause(.token, cause: "this device's FCM message rate exceeded (QUOTA_EXCEEDED)", service: "FCM")
    }
}
