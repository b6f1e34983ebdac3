import HeraldCore

/// FCM's `data` map: string keys to **string** values only (FCM answers 400
/// `INVALID_ARGUMENT` for a number), with a few keys FCM keeps for itself.
public enum FCMData {
    /// The event's `data` with every value as a string: strings as they are,
    /// numbers as written (`1.50` stays `1.50`), Booleans `true`/`false`,
    /// `null` as `null`, objects and arrays as their compact JSON text.
    public static func coerce(_ data: JSONObject) -> JSONObject {
        // Usually every value is a string already: the object goes as it is.
        let allStrings = data.values.allSatisfy { value in
            if case .string = value { true } else { false }
        }
        if allStrings { return data }
        return JSONObject(data.map { ($0.key, .string(coerce($0.value))) })
    }

    /// One value as the string FCM carries.
    public static func coerce(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let bool): bool ? "true" : "false"
        case .null, .array, .object: value.jsonString
        }
    }

    /// `true` for keys FCM refuses in `data`.
    ///
    /// - Important: Google reserves `from`, `message_type` and any key starting
    ///   with `google` or `gcm`; FCM answers 400 `INVALID_ARGUMENT` for them.
    public static func isReserved(_ key: String) -> Bool {
        key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
    }
}
