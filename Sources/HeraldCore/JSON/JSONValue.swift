/// A JSON document held as a value: what an event body, a provider payload
/// or an outcome is before it becomes a typed model, or after.
///
/// Herald parses every message body itself (strict RFC 8259, with limits) and
/// builds every provider payload with this type, so no `Any`-typed
/// dictionaries and no Foundation round trips sit on the delivery path.
///
/// Numbers keep their literal text (``JSONNumber``) and objects keep their
/// member order (``JSONObject``), so parsing then serializing reproduces the
/// input byte for byte when it was compact.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// `true` for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is a number that is an integer
    /// exactly representable as `Int` (see ``JSONNumber/int``).
    public var intValue: Int? { numberValue?.int }

    /// The number as a `Double`, when this is a finite number.
    public var doubleValue: Double? { numberValue?.double }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, when this is an array and `index` is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// What kind of value this is, with its article: "a string", "an array",
    /// ... Used by error messages ("expected an object, found an array").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { jsonString }
}
