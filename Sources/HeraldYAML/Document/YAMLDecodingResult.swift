/// What `YAMLDocument.decodeCollectingErrors` made of a document that could
/// be decoded: the value and every error decoding went on after. It exists so
/// that a caller can report all of a file's problems in one run and still
/// check the rest of the value (`herald check`).
public struct YAMLDecodingResult<Value> {
    /// The decoded value. Where the document had an error, it holds the type's
    /// default (an optional value that failed is nil; an unknown key is left out).
    public let value: Value
    /// Every error, sorted by position (`sortedByPosition`); empty when the document decoded cleanly.
    public let errors: [YAMLError]
    /// For each error, the path of what decoding left out because of it.
    private let leftOutPaths: [CodingPathID]

    init(value: Value, collected: [(error: YAMLError, leftOut: CodingPathID)]) {
        self.value = value
        self.errors = collected.map(\.error).sortedByPosition()
        self.leftOutPaths = collected.map(\.leftOut)
    }

    /// Whether an error made decoding leave out the value at `path` or one
    /// around it, so that what `value` holds there is a default rather than
    /// what the document says. A later check that finds something wrong there
    /// would be reporting a consequence of that error.
    public func leftOut(_ path: [any CodingKey]) -> Bool {
        let place = CodingPathID(path)
        return leftOutPaths.contains { place.hasPrefix($0) }
    }
}

extension YAMLDecodingResult: Sendable where Value: Sendable {}
