/// Reads typed fields out of one JSON object for the model decoders and
/// turns every mismatch into an ``EventError`` that names the field's path.
///
/// A JSON `null` reads as "absent" everywhere: serializers commonly emit
/// `"app": null` for an unset optional, and it means nothing else here.
///
/// Public: the registry's command decoder and each provider's target rules
/// read their fields with it too, so all speak with the same messages.
public struct FieldReader {
    public let object: JSONObject
    /// The object's own path (`targets[1]`); empty at the top level.
    public let path: String

    public init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// The path of member `key`.
    public func path(_ key: String) -> String {
        let name = Self.displayName(key)
        return path.isEmpty ? name : "\(path).\(name)"
    }

    /// The member `key`, unless absent or `null`.
    public func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    /// Refuses the first key not in `allowed`, suggesting the closest one.
    public func rejectUnknownKeys(allowed: [String]) throws(EventError) {
        for key in object.keys where !allowed.contains(key) {
            let hint =
                Suggestions.closest(to: key, among: allowed).map { "did you mean \(JSONText.quoted($0))?" }
                ?? "expected \(EventError.list(allowed))"
            throw EventError(field: path(key), message: "unknown field (\(hint))")
        }
    }

    public func string(_ key: String, nonEmpty: Bool = false) throws(EventError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value, !(nonEmpty && string.isEmpty) else {
            throw .mismatch(path(key), expected: nonEmpty ? "a non-empty string" : "a string", found: value)
        }
        return string
    }

    public func bool(_ key: String) throws(EventError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw .mismatch(path(key), expected: "true or false", found: value) }
        return flag
    }

    /// An integer ≥ 0 (`3600`, also `3600.0` or `3.6e3`: exactly integral).
    public func nonNegativeInt(_ key: String) throws(EventError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.intValue, int >= 0 else {
            throw .mismatch(path(key), expected: "a non-negative integer", found: value)
        }
        return int
    }

    public func object(_ key: String) throws(EventError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw .mismatch(path(key), expected: "an object", found: value) }
        return object
    }

    public func stringArray(_ key: String, nonEmptyElements: Bool = false) throws(EventError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw .mismatch(path(key), expected: "an array of strings", found: value)
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element, !(nonEmptyElements && string.isEmpty) else {
                let expected = nonEmptyElements ? "a non-empty string" : "a string"
                throw .mismatch("\(path(key))[\(index)]", expected: expected, found: element)
            }
            strings.append(string)
        }
        return strings
    }

    /// A provider by any name `providers` accepts (the aliases resolved),
    /// with a "did you mean" for a near miss.
    public func provider(_ key: String, among providers: ProviderCatalog) throws(EventError) -> Provider? {
        guard let value = value(key) else { return nil }
        let accepted = providers.acceptedNames
        guard case .string(let name) = value else {
            throw .mismatch(path(key), expected: "a provider name (\(EventError.list(accepted)))", found: value)
        }
        guard let provider = providers.provider(named: name) else {
            let hint =
                Suggestions.closest(to: name, among: accepted).map { "; did you mean \(JSONText.quoted($0))?" } ?? ""
            throw EventError(
                field: path(key),
                message: "unknown provider \(JSONText.quoted(name)) (expected \(EventError.list(accepted))\(hint))")
        }
        return provider
    }

    /// A key as it appears in a path: itself when it is a plain name,
    /// else quoted and shortened (a hostile key can hold anything).
    public static func displayName(_ key: String) -> String {
        let plain =
            !key.isEmpty && key.utf8.count <= 64
            && key.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "\"")
                    && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]")
            }
        return plain ? key : JSONText.quoted(key, limit: 40)
    }
}
