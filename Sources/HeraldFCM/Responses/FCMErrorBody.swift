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
    public var violatedFields: [String] { fieldViolations.map(\.field) }
    /// Each BadRequest field violation: the field and Google's description of it.
    public var fieldViolations: [(field: String, description: String?)]

    public init(
        code: Int? = nil, message: String? = nil, status: String? = nil, errorCode: FCMErrorCode? = nil,
        fieldViolations: [(field: String, description: String?)] = []
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.errorCode = errorCode
        self.fieldViolations = fieldViolations
    }

    public static func == (lhs: FCMErrorBody, rhs: FCMErrorBody) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.status == rhs.status && lhs.errorCode == rhs.errorCode
            && lhs.fieldViolations.elementsEqual(rhs.fieldViolations) {
                $0.field == $1.field && $0.description == $1.description
            }
    }

    /// Google's explanation for humans, bounded for outcomes and logs:
    /// `error.message`, then each field violation not already in it, e.g.
    /// `Invalid JSON payload received. Unknown name "chanel_id" at 'message.android.notification': Cannot find field.`
    public var detail: String? {
        var parts: [String] = []
        if let message, !message.isEmpty { parts.append(message) }
        for violation in fieldViolations {
            let text = violation.description.map { "\(violation.field): \($0)" } ?? violation.field
            if let message, let description = violation.description, message.contains(description) { continue }
            parts.append(text)
        }
        return DeliveryDetail.bounded(parts.isEmpty ? nil : parts.joined(separator: "; "))
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
                    if let field = violation["field"]?.stringValue {
                        fieldViolations.append((field, violation["description"]?.stringValue))
                    }
                }
            default:
                continue
            }
        }
    }

    /// Whether the error is about the device `address` names: a BadRequest
    /// violation on its field (`message.token`, `message.fid`), or for a
    /// token, a message that names the registration token. Never about a
    /// topic or condition, which are not devices.
    public func isAbout(device address: Target.Address) -> Bool {
        guard address.isDevice else { return false }
        if violatedFields.contains("message." + address.field) { return true }
        guard address.kind == .token else { return false }
        return message?.lowercased().contains("registration token") ?? false
    }
}
