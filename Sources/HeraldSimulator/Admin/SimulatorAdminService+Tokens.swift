import HeraldCore

/// `GET /_herald/tokens`; each provider's `PUT`/`DELETE /_herald/tokens/<provider>/<token>`
/// is its own (`SimulatorAdminRoutes.Tokens`).
extension SimulatorAdminService {
    /// `{"<provider>":{...}}`, one entry per registered provider with tokens
    /// (`{"apns":{...},"fcm":{...}}`), in the registration order; a provider
    /// the simulator does not serve is left out.
    var tokenTable: JSONValue {
        var table = JSONObject()
        for tokens in Self.tokenRoutes {
            if let entry = tokens.table(self) { table[tokens.provider] = entry }
        }
        return .object(table)
    }

    /// The body as a JSON object (an empty body is `{}`) with only `keys` (any when nil) and `required` present.
    static func bodyObject(_ body: [UInt8], keys: [String]?, required: String?) throws(AdminError) -> JSONObject {
        let object: JSONObject
        if body.isEmpty {
            object = JSONObject()
        } else {
            let value: JSONValue
            do { value = try JSONValue.parse(body) } catch { throw .badRequest("the body is not JSON: \(error)") }
            guard let parsed = value.objectValue else {
                throw .badRequest("expected a JSON object, found \(value.kindDescription)")
            }
            object = parsed
        }
        if let keys, let unknown = object.keys.first(where: { !keys.contains($0) }) {
            throw .badRequest("unknown key '\(unknown)'\(Suggestions.hint(for: unknown, among: keys))")
        }
        if let required, object[required] == nil { throw .badRequest("expected a JSON object with '\(required)'") }
        return object
    }
}
