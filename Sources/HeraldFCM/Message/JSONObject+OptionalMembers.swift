import HeraldCore

extension JSONObject {
    /// Sets `key` to the string when there is one.
    mutating func set(_ key: String, _ value: String?) {
        if let value { self[key] = .string(value) }
    }

    /// Sets `key` to an array of strings when there is one.
    mutating func set(_ key: String, _ values: [String]?) {
        if let values { self[key] = .array(values.map { .string($0) }) }
    }
}
