/// FCM's `errorCode` (the `google.firebase.fcm.v1.FcmError` detail of an
/// error answer): the one table that says what each means for the token and
/// the notification. A code Google adds later is kept verbatim (`unknown`)
/// and classified by its HTTP status.
public enum FCMErrorCode: Sendable, Hashable, CustomStringConvertible {
    case unspecifiedError
    /// 400: a bad request; about the token only when the error says so.
    case invalidArgument
    /// 404: the app was uninstalled or the token expired: delete it.
    case unregistered
    /// 403: the token belongs to another Firebase project: delete it here.
    case senderIDMismatch
    /// 429: project, topic or per-device quota exceeded: back off.
    case quotaExceeded
    /// 503: FCM is overloaded: retry with back-off.
    case unavailable
    /// 500: FCM failed: retry with back-off.
    case `internal`
    /// 401: APNs or Web Push refused the credentials uploaded to Firebase.
    case thirdPartyAuthError
    case unknown(String)

    /// What Herald does about an error with this code.
    public enum Disposition: Sendable, Equatable {
        /// The token is dead: `invalid_token`.
        case invalidToken
        /// `invalid_token` too, but every token gets this answer when the app's
        /// project is wrong: the invalidation guard may hold it back.
        case invalidTokenUnlessMisconfigured
        /// `invalid_token` when the error is about the target's device (its
        /// registration token or FID, ``FCMErrorBody/isAbout(device:)``), else
        /// `failed`; as a token verdict, the invalidation guard may hold it back.
        case invalidTokenIfAboutToken
        /// Permanent for this notification: `failed`.
        case failed
        /// Transient: `retrying`, honouring `Retry-After`.
        case retry
        /// Decided by the HTTP status (no code, or a code Herald does not know).
        case byHTTPStatus
    }

    private static let table: [(code: FCMErrorCode, name: String, disposition: Disposition)] = [
        (.unspecifiedError, "UNSPECIFIED_ERROR", .byHTTPStatus),
        (.invalidArgument, "INVALID_ARGUMENT", .invalidTokenIfAboutToken),
        (.unregistered, "UNREGISTERED", .invalidToken),
        (.senderIDMismatch, "SENDER_ID_MISMATCH", .invalidTokenUnlessMisconfigured),
        (.quotaExceeded, "QUOTA_EXCEEDED", .retry),
        (.unavailable, "UNAVAILABLE", .retry),
        (.internal, "INTERNAL", .retry),
        (.thirdPartyAuthError, "THIRD_PARTY_AUTH_ERROR", .failed),
    ]

    public init(rawValue: String) {
        self = Self.table.first { $0.name == rawValue }?.code ?? .unknown(rawValue)
    }

    /// The name on the wire, e.g. `UNREGISTERED`.
    public var rawValue: String {
        if case .unknown(let name) = self { return name }
        return Self.table.first { $0.code == self }?.name ?? ""
    }

    public var disposition: Disposition {
        Self.table.first { $0.code == self }?.disposition ?? .byHTTPStatus
    }

    public var description: String { rawValue }
}
