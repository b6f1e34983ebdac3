/// A node of the loaded document: what the decoder walks, what validators
/// look positions up in, and what a type can capture to accept "any YAML
/// value". Aliases are already resolved and merge keys already applied.
public struct YAMLNode: Sendable, Hashable {
    /// The three kinds of YAML node.
    public enum Content: Sendable, Hashable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        /// Entries in source order, merged (`<<`) entries included.
        case mapping([YAMLMappingEntry])
    }

    public var content: Content
    /// Where the node starts in the source.
    public var mark: YAMLMark

    public init(_ content: Content, mark: YAMLMark) {
        self.content = content
        self.mark = mark
    }
}

extension YAMLNode: Decodable {
    /// Captures the node as written, so a config type can hold "any YAML
    /// value" (a property of type `YAMLNode`). Only HeraldYAML's decoder can
    /// provide one; other decoders get a `typeMismatch`.
    public init(from decoder: any Decoder) throws {
        guard let yamlDecoder = decoder as? YAMLNodeDecoder else {
            throw DecodingError.typeMismatch(
                YAMLNode.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "a YAMLNode can only be decoded from a YAMLDocument"))
        }
        self = yamlDecoder.node
    }
}

/// One `key: value` pair of a mapping. Keys are scalars (the loader rejects
/// others), kept as text with their own mark so an unknown or duplicate key
/// is reported where it is written.
public struct YAMLMappingEntry: Sendable, Hashable {
    public var key: String
    public var keyMark: YAMLMark
    public var value: YAMLNode

    public init(key: String, keyMark: YAMLMark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}
