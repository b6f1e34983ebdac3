/// The `Decoder` handed to `init(from:)`: one node, its coding path, and the
/// session that checks keys and positions errors.
struct YAMLNodeDecoder: Decoder {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let session: DecodingSession

    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try YAMLKeyedContainer<Key>(node: node, codingPath: codingPath, session: session))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try YAMLUnkeyedContainer(node: node, codingPath: codingPath, session: session)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        YAMLSingleValueContainer(node: node, codingPath: codingPath, session: session)
    }
}
