extension YAMLNode {
    /// The scalar, if this node is one.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, if this node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries, if this node is a mapping.
    public var mapping: [YAMLMappingEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// True if this node is a null scalar (see `YAMLScalar.isNull`).
    public var isNull: Bool { scalar?.isNull ?? false }

    /// The value of `key` when this node is a mapping.
    public subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key == key }?.value
    }

    /// How an error message names what was found here: `'abc'`, `a sequence`.
    var foundDescription: String {
        switch content {
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        case .scalar(let scalar):
            if scalar.isNull && scalar.value.isEmpty { return "an empty value" }
            return "'\(scalar.value.truncatedForMessage)'"
        }
    }
}
