extension YAMLNode: Decodable {
    /// Captures the node as written, so a config type can hold "any YAML
    /// value" (a property of type `YAMLNode`). Only HeraldYAML's decoder can
    /// provide one; other decoders get a `typeMismatch`.
    public init(from decoder: any Decoder) throws {
        guard let yamlDecoder = decoder as? YAMLNodeDecoder else {
            throw DecodingError.typeMismatch(YAMLNode.self, DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a YAMLNode can only be decoded from a YAMLDocument"))
        }
        self = yamlDecoder.node
    }
}
