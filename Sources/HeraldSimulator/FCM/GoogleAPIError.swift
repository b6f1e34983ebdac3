import HeraldCore

/// An error answer in Google's API shape, as FCM and the OAuth endpoint send them:
/// `{"error":{"code","message","status","details":[...]}}`.
struct GoogleAPIError: Error, Sendable {
    var code: Int
    var status: String
    var message: String
    /// The FcmError detail's `errorCode`, when FCM attaches one.
    var fcmErrorCode: String?
    /// BadRequest field violations: `(field, description)`.
    var fieldViolations: [(field: String, description: String)] = []
    var retryAfterSeconds: Int?

    var json: JSONValue {
        var details: [JSONValue] = []
        if let fcmErrorCode {
            details.append([
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(fcmErrorCode),
            ])
        }
        if !fieldViolations.isEmpty {
            let violations: [JSONValue] = fieldViolations.map {
                ["field": .string($0.field), "description": .string($0.description)]
            }
            details.append(["@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": .array(violations)])
        }
        var error: JSONObject = [
            "code": .number(JSONNumber(code)), "message": .string(message), "status": .string(status),
        ]
        if !details.isEmpty { error["details"] = .array(details) }
        return ["error": .object(error)]
    }

    func answer(delay: Duration?) -> SimulatedAnswer {
        var headers: [(name: String, value: String)] = [("content-type", "application/json; charset=UTF-8")]
        if let retryAfterSeconds { headers.append(("retry-after", String(retryAfterSeconds))) }
        return .respond(status: code, headers: headers, body: json.serialized, delay: delay)
    }

    /// 400 INVALID_ARGUMENT about one field.
    static func invalidArgument(_ message: String, field: String? = nil) -> GoogleAPIError {
        GoogleAPIError(
            code: 400, status: "INVALID_ARGUMENT", message: message,
            fieldViolations: field.map { [($0, message)] } ?? [])
    }
}
