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

    /// The `@type` of the detail that carries FCM's `errorCode`.
    static let fcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError"

    var json: JSONValue {
        var details: [JSONValue] = []
        if let fcmErrorCode {
            details.append([
                "@type": .string(Self.fcmErrorType), "errorCode": .string(fcmErrorCode),
            ])
        }
        if !fieldViolations.isEmpty {
            let violations: [JSONValue] = fieldViolations.map {
                ["field": .string($0.field), "description": .string($0.description)]
            }
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": .array(violations),
            ])
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

    /// The reason the record shows for an error body in this shape: the
    /// FcmError detail's `errorCode`, else Google's `status`.
    static func reason(in body: [UInt8]) -> String? {
        guard let error = (try? JSONValue.parse(body))?["error"] else { return nil }
        let fcmError = error["details"]?.arrayValue?.first {
            $0["@type"]?.stringValue == Self.fcmErrorType
        }
        return fcmError?["errorCode"]?.stringValue ?? error["status"]?.stringValue
    }

    /// 400 INVALID_ARGUMENT about one field.
    static func invalidArgument(_ message: String, field: String? = nil) -> GoogleAPIError {
        GoogleAPIError(
            code: 400, status: "INVALID_ARGUMENT", message: message,
            fieldViolations: field.map { [($0, message)] } ?? [])
    }
}
