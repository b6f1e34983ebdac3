/// The failure of `YAMLDocument.decodeCollectingErrors`: the document could
/// not be decoded into a value (a missing required key, a required value of
/// the wrong type), and these are every error found up to that point, so a
/// caller can still report them all at once.
public struct YAMLDecodingErrors: Error, Sendable, CustomStringConvertible {
    /// Sorted by position (`sortedByPosition`); the error that stopped decoding is one of them.
    public let errors: [YAMLError]

    init(errors: [YAMLError]) {
        self.errors = errors.sortedByPosition()
    }

    /// One error a line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
