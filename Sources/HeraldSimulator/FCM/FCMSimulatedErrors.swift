/// The error answers the simulated FCM gives, worded like FCM's own.
enum FCMSimulatedErrors {
    static let unauthenticated = GoogleAPIError(
        code: 401, status: "UNAUTHENTICATED",
        message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
            + "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    )

    /// A token issued for other scopes than `messages:send` accepts.
    static let insufficientScopes = GoogleAPIError(
        code: 403, status: "PERMISSION_DENIED", message: "Request had insufficient authentication scopes.")

    static func permissionDenied(project: String) -> GoogleAPIError {
        GoogleAPIError(
            code: 403, status: "PERMISSION_DENIED",
            message: "Permission 'cloudmessaging.messages.create' denied on resource "
                + "'//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).")
    }

    static let invalidRegistrationToken = GoogleAPIError(
        code: 400, status: "INVALID_ARGUMENT", message: "The registration token is not a valid FCM registration token",
        fcmErrorCode: "INVALID_ARGUMENT")

    /// Google documents no answer for a malformed FID; this one mirrors the
    /// malformed-token answer and names the field in a BadRequest violation.
    static let invalidFID = GoogleAPIError(
        code: 400, status: "INVALID_ARGUMENT", message: "The Firebase Installation ID is not a valid FID",
        fcmErrorCode: "INVALID_ARGUMENT",
        fieldViolations: [("message.fid", "The Firebase Installation ID is not a valid FID")])

    static let unregistered = GoogleAPIError(
        code: 404, status: "NOT_FOUND", message: "Requested entity was not found.", fcmErrorCode: "UNREGISTERED")

    static let senderIDMismatch = GoogleAPIError(
        code: 403, status: "PERMISSION_DENIED", message: "SenderId mismatch", fcmErrorCode: "SENDER_ID_MISMATCH")

    static let thirdPartyAuth = GoogleAPIError(
        code: 401, status: "UNAUTHENTICATED", message: "Auth error from APNS or Web Push Service",
        fcmErrorCode: "THIRD_PARTY_AUTH_ERROR")

    /// One device's message rate exceeded: no quota metric named, unlike the project's answer below.
    static func deviceRateExceeded(retryAfter: Int?) -> GoogleAPIError {
        GoogleAPIError(
            code: 429, status: "RESOURCE_EXHAUSTED", message: "Message rate exceeded for this device.",
            fcmErrorCode: "QUOTA_EXCEEDED", retryAfterSeconds: retryAfter)
    }

    /// The project's send quota exceeded: Google's answer names the quota metric.
    static func quotaExceeded(retryAfter: Int?) -> GoogleAPIError {
        GoogleAPIError(
            code: 429, status: "RESOURCE_EXHAUSTED",
            message: "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.",
            fcmErrorCode: "QUOTA_EXCEEDED", retryAfterSeconds: retryAfter)
    }

    static let internalError = GoogleAPIError(
        code: 500, status: "INTERNAL", message: "Internal error encountered.", fcmErrorCode: "INTERNAL")

    static func unavailable(retryAfter: Int?) -> GoogleAPIError {
        GoogleAPIError(
            code: 503, status: "UNAVAILABLE", message: "The service is currently unavailable.",
            fcmErrorCode: "UNAVAILABLE",
            retryAfterSeconds: retryAfter)
    }
}
