/// A single-value container: the node itself, read type-directed.
struct YAMLSingleValueContainer: SingleValueDecodingContainer {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let session: DecodingSession

    private var reader: ScalarReader { ScalarReader(node: node, path: codingPath, session: session) }

    func decodeNil() -> Bool { node.isNull }

    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool() }
    func decode(_ type: String.Type) throws -> String { try reader.string() }
    func decode(_ type: Double.Type) throws -> Double { try reader.float(type) }
    func decode(_ type: Float.Type) throws -> Float { try reader.float(type) }
    func decode(_ type: Int.Type) throws -> Int { try reader.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try reader.integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try reader.integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try session.decode(type, from: node, at: codingPath)
    }
}
