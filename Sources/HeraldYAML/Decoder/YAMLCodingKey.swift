/// A coding key for paths HeraldYAML builds itself (sequence indices, `super`,
/// dictionary keys) and for validators that name a place in the document:
/// `[YAMLCodingKey("routes"), YAMLCodingKey(index: 1), YAMLCodingKey("app")]`.
public struct YAMLCodingKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int?

    /// A mapping key.
    public init(_ key: String) {
        self.stringValue = key
        self.intValue = nil
    }

    /// A sequence index (0-based), rendered as `[index]`.
    public init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    public init?(stringValue: String) { self.init(stringValue) }
    public init?(intValue: Int) { self.init(index: intValue) }

    static let superKey = YAMLCodingKey("super")
}

extension YAMLCodingKey {
    /// Renders a coding path as `routes[2].match.routing_key`: keys with an
    /// integer value are indices, other keys are joined with dots and quoted
    /// as `["a.b"]` when they are not plain words.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else if isPlainWord(key.stringValue) {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            } else {
                text += "[\"\(key.stringValue)\"]"
            }
        }
        return text
    }

    private static func isPlainWord(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                scalar == "_" || scalar == "-" || (scalar.isASCII && scalar.properties.isAlphabetic)
                    || ("0"..."9").contains(scalar)
            }
    }
}
