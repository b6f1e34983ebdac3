import HeraldCore
/// A keyed container over a mapping. Opening it records which keys the
/// `CodingKey` type knows; every key asked for is recorded as a did-you-mean
/// candidate; a missing required key is reported at the mapping. An optional
/// value (`decodeIfPresent`) that fails to decode is handed to the session,
/// which records it and lets the value be nil when it collects errors.
struct YAMLKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let session: DecodingSession
    private let entries: [String: YAMLMappingEntry]
    private let order: [YAMLMappingEntry]

    init(node: YAMLNode, codingPath: [any CodingKey], session: DecodingSession) throws(YAMLError) {
        guard let mapping = node.mapping else {
            throw session.error("expected a mapping, found \(node.foundDescription)", at: node, path: codingPath)
        }
        self.node = node
        self.codingPath = codingPath
        self.session = session
        self.order = mapping
        self.entries = Dictionary(mapping.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let known = Set(mapping.map(\.key).filter { Key(stringValue: $0) != nil })
        session.beginVisit(mapping, at: codingPath, known: known)
    }

    var allKeys: [Key] { order.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool {
        session.noteRequested(key.stringValue, at: codingPath)
        return entries[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader(key).float(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).float(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try reader(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try reader(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try reader(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try reader(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try reader(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try reader(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try reader(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try reader(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try reader(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try reader(key).integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try reader(key).integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try reader(key).integer(type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try session.decode(type, from: value(for: key), at: codingPath + [key])
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key) { try $0.bool() } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optional(key) { try $0.string() }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(key) { try $0.float(type) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(key) { try $0.float(type) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optional(key) { try $0.integer(type) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optional(key) { try $0.integer(type) }
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try optional(key) { try $0.integer(type) }
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try optional(key) { try $0.integer(type) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key) { reader in try reader.session.decode(type, from: reader.node, at: reader.path) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(
            try YAMLKeyedContainer<NestedKey>(node: value(for: key), codingPath: codingPath + [key], session: session))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try YAMLUnkeyedContainer(node: value(for: key), codingPath: codingPath + [key], session: session)
    }

    func superDecoder() throws -> any Decoder { superDecoder(named: YAMLCodingKey.superKey) }
    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(named: key) }

    // MARK: Helpers

    /// The value at `key`, recording the request; a missing key throws.
    private func value(for key: Key) throws(MissingKeyError) -> YAMLNode {
        session.noteRequested(key.stringValue, at: codingPath)
        guard let entry = entries[key.stringValue] else {
            let error = session.error(
                "missing required key '\(key.stringValue.truncatedForMessage)'", at: node, path: codingPath)
            throw MissingKeyError(key: key.stringValue, error: error)
        }
        return entry.value
    }

    private func reader(_ key: Key) throws(MissingKeyError) -> ScalarReader {
        ScalarReader(node: try value(for: key), path: codingPath + [key], session: session)
    }

    /// The value at `key` read by `read`; nil when the key is absent or null,
    /// and when reading fails and the session recovers from the error.
    private func optional<T>(_ key: Key, _ read: (ScalarReader) throws -> T) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let reader = try reader(key)
        do {
            return try read(reader)
        } catch let error as YAMLError {
            try session.recover(from: error, leavingOut: codingPath + [key])
            return nil
        }
    }

    /// A decoder for the value at `key`, or for null when it is absent.
    private func superDecoder(named key: any CodingKey) -> any Decoder {
        session.noteRequested(key.stringValue, at: codingPath)
        let value =
            entries[key.stringValue]?.value
            ?? YAMLNode(.scalar(YAMLScalar(value: "")), mark: node.mark)
        return YAMLNodeDecoder(node: value, codingPath: codingPath + [key], session: session)
    }
}

/// Thrown by a keyed container for a missing required key; the session turns
/// it into a `YAMLError`, or into an unknown-key error when a typo in the
/// same mapping explains it (`prefech` when `prefetch` is missing).
struct MissingKeyError: Error, CustomStringConvertible {
    let key: String
    let error: YAMLError

    var description: String { error.description }
}
