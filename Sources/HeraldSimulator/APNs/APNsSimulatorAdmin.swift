import HeraldCore

/// The simulated APNs in the admin API: its dead tokens in `GET /_herald/tokens`
/// and `PUT`/`DELETE /_herald/tokens/apns/<token>`.
enum APNsSimulatorAdmin {
    /// `{"<token>":{"reason":"Unregistered","since":"<RFC 3339>"}}`, tokens sorted; nil when APNs is not served.
    @Sendable static func table(_ admin: SimulatorAdminService) -> JSONValue? {
        guard let apns = admin.service(APNsSimulatorService.self) else { return nil }
        var dead = JSONObject()
        for (token, since) in apns.currentDeadTokens.sorted(by: { $0.key < $1.key }) {
            dead[token] = ["reason": "Unregistered", "since": .string(since.rfc3339(fractionDigits: 3))]
        }
        return .object(dead)
    }

    /// PUT `{"since":"<RFC 3339>"}` (default: when the request came; `"reason":"Unregistered"` may be given) kills the token:
    /// 410 Unregistered from then on. DELETE makes it live again.
    @Sendable static func change(
        _ admin: SimulatorAdminService, token: String, remove: Bool, request: SimulatedRequest
    ) throws(AdminError) {
        guard let apns = admin.service(APNsSimulatorService.self) else {
            throw AdminError(404, "APNs is not simulated here")
        }
        guard token.utf8.count == 64, token.utf8.allSatisfy(\.isHexDigit) else {
            throw .badRequest("expected an APNs device token of 64 hexadecimal digits, found '\(token)'")
        }
        if remove {
            apns.markAlive(token)
            return
        }
        let object = try SimulatorAdminService.bodyObject(request.body, keys: ["reason", "since"], required: nil)
        if let reason = object["reason"], reason.stringValue != "Unregistered" {
            throw .badRequest(
                "reason: the simulator makes an APNs token Unregistered (410), found \(reason.jsonString)")
        }
        var since = request.receivedAt
        if let value = object["since"] {
            guard let text = value.stringValue, let time = Timestamp(rfc3339: text) else {
                throw .badRequest(
                    "since: expected an RFC 3339 time such as 2026-11-30T10:00:00Z, found \(value.jsonString)")
            }
            since = time
        }
        apns.markDead(token, since: since)
    }
}
