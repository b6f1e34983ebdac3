/// An unkeyed container over a sequence; item `i` has coding path `…[i]`.
struct YAMLUnkeyedContainer: UnkeyedDecodingContainer {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let session: DecodingSession
    private let items: [YAMLNode]
    private(set) var currentIndex = 0

    init(node: YAMLNode, codingPath: [any CodingKey], session: DecodingSession) throws(YAMLError) {
        guard let items = node.sequence else {
            throw session.error("expected a sequence, found \(node.foundDescription)", at: node, path: codingPath)
        }
        self.node = node
        self.codingPath = codingPath
        self.session = session
        self.items = items
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func decodeNil() throws -> Bool {
        guard try current().isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.float(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.float(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.integer(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next { try $0.integer(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next { try $0.integer(type) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next { reader in try reader.session.decode(type, from: reader.node, at: reader.path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next { reader in
            KeyedDecodingContainer(
                try YAMLKeyedContainer<NestedKey>(node: reader.node, codingPath: reader.path, session: reader.session))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { reader in
            try YAMLUnkeyedContainer(node: reader.node, codingPath: reader.path, session: reader.session)
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { reader in YAMLNodeDecoder(node: reader.node, codingPath: reader.path, session: reader.session) }
    }

    // MARK: Helpers

    private func current() throws(YAMLError) -> YAMLNode {
        guard !isAtEnd else {
            throw session.error(
                "expected at least \(currentIndex + 1) items, found \(items.count)", at: node, path: codingPath)
        }
        return items[currentIndex]
    }

    /// Reads the current item and moves past it only when reading succeeded.
    private mutating func next<T>(_ read: (ScalarReader) throws -> T) throws -> T {
        let path = codingPath + [YAMLCodingKey(index: currentIndex)]
        let value = try read(ScalarReader(node: try current(), path: path, session: session))
        currentIndex += 1
        return value
    }
}
