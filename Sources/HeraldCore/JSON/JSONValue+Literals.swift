// Literal conformances, so payload-building code reads like the JSON it builds:
//
//     let aps: JSONValue = ["alert": ["title": title], "badge": 3, "sound": nil]

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(JSONNumber(finite: value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Members keep the literal's order; a key written twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Members keep the literal's order; a key written twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
