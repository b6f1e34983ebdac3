import HeraldCore

/// `GET /_herald/tokens`, `PUT`/`DELETE /_herald/tokens/apns/<token>` and `/_herald/tokens/fcm/<token>`.
extension SimulatorAdminService {
    /// `{"apns":{"<token>":{"reason":"Unregistered","since":"<RFC 3339>"}},"fcm":{"<token>":"<FcmError code>"}}`,
    /// tokens sorted; a provider the simulator does not serve is left out.
    var tokenTable: JSONValue {
        var table = JSONObject()
        if let apns {
            var dead = JSONObject()
            for (token, since) in apns.currentDeadTokens.sorted(by: { $0.key < $1.key }) {
                dead[token] = ["reason": "Unregistered", "since": .string(since.rfc3339(fractionDigits: 3))]
            }
            table["apns"] = .object(dead)
        }
        if let fcm {
            var errors = JSONObject()
            for (token, code) in fcm.settings.tokenErrors.sorted(by: { $0.key < $1.key }) { errors[token] = .string(code.rawValue) }
            table["fcm"] = .object(errors)
        }
        return .object(table)
    }

    /// PUT `{"since":"<RFC 3339>"}` (default: now; `"reason":"Unregistered"` may be given) kills the token:
    /// 410 Unregistered from then on. DELETE makes it live again. Answers the token table.
    func changeAPNsToken(_ token: String, remove: Bool, body: [UInt8], at now: Timestamp) throws(AdminError) -> SimulatedAnswer {
        guard let apns else { throw AdminError(404, "APNs is not simulated here") }
        guard token.utf8.count == 64, token.utf8.allSatisfy(\.isHexDigit) else {
            throw .badRequest("expected an APNs device token of 64 hexadecimal digits, found '\(token)'")
        }
        if remove {
            apns.markAlive(token)
            return Self.json(tokenTable)
        }
        let object = try Self.bodyObject(body, keys: ["reason", "since"], required: nil)
        if let reason = object["reason"], reason.stringValue != "Unregistered" {
            throw .badRequest("reason: the simulator makes an APNs token Unregistered (410), found \(reason.jsonString)")
        }
        var since = now
        if let value = object["since"] {
            guard let text = value.stringValue, let time = Timestamp(rfc3339: text) else {
                throw .badRequest("since: expected an RFC 3339 time such as 2026-11-30T10:00:00Z, found \(value.jsonString)")
            }
            since = time
        }
        apns.markDead(token, since: since)
        return Self.json(tokenTable)
    }

    /// PUT `{"error":"<FcmError code>"}` makes FCM answer the token with that
    /// error; DELETE makes it deliverable again. Answers the token table.
    func changeFCMToken(_ token: String, remove: Bool, body: [UInt8]) throws(AdminError) -> SimulatedAnswer {
        guard let fcm else { throw AdminError(404, "FCM is off: start herald simulate with --fcm-service-account") }
        guard FCMSimulatorService.isWellFormedToken(token) else {
            throw .badRequest("expected a registration token of letters, digits, '-', '_', ':' and '.', found '\(token)'")
        }
        if remove {
            fcm.update { $0.tokenErrors[token] = nil }
            return Self.json(tokenTable)
        }
        let object = try Self.bodyObject(body, keys: ["error"], required: "error")
        guard let name = object["error"]?.stringValue, let code = FCMSimulatedErrorCode(rawValue: name) else {
            throw .badRequest("error: expected one of \(FCMSimulatedErrorCode.allNames), found \(object["error"]?.jsonString ?? "nothing")")
        }
        fcm.update { $0.tokenErrors[token] = code }
        return Self.json(tokenTable)
    }

    /// The body as a JSON object (an empty body is `{}`) with only `keys` (any when nil) and `required` present.
    static func bodyObject(_ body: [UInt8], keys: [String]?, required: String?) throws(AdminError) -> JSONObject {
        let object: JSONObject
        if body.isEmpty {
            object = JSONObject()
        } else {
            let value: JSONValue
            do { value = try JSONValue.parse(body) } catch { throw .badRequest("the body is not JSON: \(error)") }
            guard let parsed = value.objectValue else { throw .badRequest("expected a JSON object, found \(value.kindDescription)") }
            object = parsed
        }
        if let keys, let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw .badRequest("unknown key '\(unknown)'\(Suggestions.hint(for: unknown, among: keys))")
        }
        if let required, object[required] == nil { throw .badRequest("expected a JSON object with '\(required)'") }
        return object
    }
}
