import HeraldCore

/// The simulated FCM in the admin API: its token errors in `GET /_herald/tokens`
/// and `PUT`/`DELETE /_herald/tokens/fcm/<token>`.
enum FCMSimulatorAdmin {
    /// `{"<token>":"<FcmError code>"}`, tokens sorted; nil when FCM is off.
    @Sendable static func table(_ admin: SimulatorAdminService) -> JSONValue? {
        guard let fcm = admin.service(FCMSimulatorService.self) else { return nil }
        var errors = JSONObject()
        for (token, code) in fcm.settings.tokenErrors.sorted(by: { $0.key < $1.key }) {
            errors[token] = .string(code.rawValue)
        }
        return .object(errors)
    }

    /// PUT `{"error":"<FcmError code>"}` makes FCM answer the token with that
    /// error; DELETE makes it deliverable again.
    @Sendable static func change(
        _ admin: SimulatorAdminService, token: String, remove: Bool, request: SimulatedRequest
    ) throws(AdminError) {
        guard let fcm = admin.service(FCMSimulatorService.self) else {
            throw AdminError(404, "FCM is off: start herald simulate with --fcm-service-account")
        }
        guard FCMSimulatorService.isWellFormedToken(token) else {
            throw .badRequest(
                "expected a registration token of letters, digits, '-', '_', ':' and '.', found '\(token)'")
        }
        if remove {
            fcm.update { $0.tokenErrors[token] = nil }
            return
        }
        let object = try SimulatorAdminService.bodyObject(request.body, keys: ["error"], required: "error")
        guard let name = object["error"]?.stringValue, let code = FCMSimulatedErrorCode(rawValue: name) else {
            throw .badRequest(
                "error: expected one of \(FCMSimulatedErrorCode.allNames), found \(object["error"]?.jsonString ?? "nothing")"
            )
        }
        fcm.update { $0.tokenErrors[token] = code }
    }
}
