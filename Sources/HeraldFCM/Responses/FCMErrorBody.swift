import HeraldCore

/// A Google API error answer: `{"error":{"code","message","status","details":[...]}}`,
/// with the two details Herald reads: FCM's `errorCode` and `google.rpc.BadRequest`
/// field violations.
public struct FCMErrorBody: Sendable, Equatable {
    public static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
    public static let badRequestType = "type.googleapis.com/google.rpc.BadRequest"

    /// `error.code`: the HTTP status Google meant.
    public var code: Int?
    /// `error.message`, for humans.
    public var message: String?
    /// `error.status`: the canonical gRPC status name, e.g. `NOT_FOUND`.
    public var status: String?
    /// The FcmError detail's `errorCode`, if the answer has one.
    public var errorCode: FCMErrorCode?
    /// `field` of each BadRequest field violation, e.g. `message.token`.
    public var violatedFields: [String]

    public init(code: Int? = nil, message: String? = nil, status: String? = nil, errorCode: FCMErrorCode? = nil,
                violatedFields: [String] = []) {
        self.code = code
        self.message = message
        self.status = status
        self.errorCode = errorCode
        self.violatedFields = violatedFields
    }

    /// Reads an error body; anything that is not Google's shape gives an empty value.
    public init(parsing body: [UInt8]) {
        self.init()
        guard let error = (try? JSONValue.parse(body))?["error"] else { return }
        code = error["code"]?.intValue
        message = error["message"]?.stringValue
        status = error["status"]?.stringValue
        for detail in error["details"]?.arrayValue ?? [] {
            switch detail["@type"]?.stringValue {
            case Self.fcmErrorType?:
                if let name = detail["errorCode"]?.stringValue { errorCode = FCMErrorCode(rawValue: name) }
            case Self.badRequestType?:
                for violation in detail["fieldViolations"]?.arrayValue ?? [] {
                    if let field = violation["field"]?.stringValue { violatedFields.append(field) }
                }
            default:
                continue
            }
        }
    }

    /// Whether the error is about the registration token: a BadRequest
    /// violation on `message.token`, or a message that names the token.
    public var isAboutRegistrationToken: Bool {
        violatedFields.contains("message.token")
            || (message?.lowercased().contains("registration token") ?? false)
    }
}
