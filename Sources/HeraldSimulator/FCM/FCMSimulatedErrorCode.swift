/// The answers FCM gives about one registration token, by the FcmError
/// `errorCode` each carries: what `fcm.token_errors` (YAML),
/// `--fcm-token-error` (CLI), `FCMSimulatorSettings.tokenErrors` (Swift) and
/// the admin API's `PUT /_herald/tokens/fcm/<token>` set for a token, so a
/// test can make any token fail the way a real one does.
public enum FCMSimulatedErrorCode: String, Sendable, CaseIterable, Decodable {
    /// 404 NOT_FOUND: the app was uninstalled or the token expired.
    case unregistered = "UNREGISTERED"
    /// 400 INVALID_ARGUMENT: not a valid FCM registration token.
    case invalidArgument = "INVALID_ARGUMENT"
    /// 403 PERMISSION_DENIED: the token belongs to another project's app.
    case senderIDMismatch = "SENDER_ID_MISMATCH"
    /// 429 RESOURCE_EXHAUSTED with `Retry-After`: the token's (or the project's) sending limit.
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// 503 UNAVAILABLE with `Retry-After`: FCM overloaded.
    case unavailable = "UNAVAILABLE"
    /// 500 INTERNAL: FCM failed.
    case internalError = "INTERNAL"
    /// 401 UNAUTHENTICATED: the APNs key or web-push credentials in Firebase are wrong for this (iOS or web) token.
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"

    /// `UNREGISTERED, INVALID_ARGUMENT, ...`, for messages that list what is allowed.
    public static let allNames = allCases.map(\.rawValue).joined(separator: ", ")

    /// FCM's answer for this code given to one token; `retryAfter` is the
    /// `Retry-After` of 429 and 503. QUOTA_EXCEEDED for a token is that
    /// device's message rate (the project's quota is `FCMSimulatorSettings.quota`).
    func error(retryAfter: Int?) -> GoogleAPIError {
        switch self {
        case .unregistered: FCMSimulatedErrors.unregistered
        case .invalidArgument: FCMSimulatedErrors.invalidRegistrationToken
        case .senderIDMismatch: FCMSimulatedErrors.senderIDMismatch
        case .quotaExceeded: FCMSimulatedErrors.deviceRateExceeded(retryAfter: retryAfter)
        case .unavailable: FCMSimulatedErrors.unavailable(retryAfter: retryAfter)
        case .internalError: FCMSimulatedErrors.internalError
        case .thirdPartyAuthError: FCMSimulatedErrors.thirdPartyAuth
        }
    }
}
