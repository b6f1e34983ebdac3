/// The one error HeraldYAML throws: where (file, line, column, key path) and
/// what (a message saying what was expected and what was found), rendered as
/// `config.yaml:12:5: amqp.prefech: unknown key 'prefech' (did you mean 'prefetch'?)`.
public struct YAMLError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file name as given to the document (`config.yaml`).
    public var file: String
    /// 1-based line, or 0 for a problem with the file as a whole.
    public var line: Int
    /// 1-based column, or 0 with `line` 0.
    public var column: Int
    /// Where in the document, like `routes[2].match.routing_key`; empty at the root.
    public var keyPath: String
    /// What went wrong, without the position.
    public var message: String

    public init(file: String, line: Int, column: Int, keyPath: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    init(file: String, mark: YAMLMark, path: [any CodingKey], message: String) {
        self.init(
            file: file, line: mark.line, column: mark.column,
            keyPath: YAMLCodingKey.render(path), message: message)
    }

    /// `file:line:column: keyPath: message`, leaving out the position when
    /// `line` is 0 and the key path when it is empty.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line):\(column)" }
        text += ": "
        if !keyPath.isEmpty { text += keyPath + ": " }
        return text + message
    }
}

extension Sequence<YAMLError> {
    /// The errors in the order of their position in the file: by line, then
    /// column; problems with the file as a whole (line 0) first, and errors at
    /// one position in the order given.
    public func sortedByPosition() -> [YAMLError] {
        enumerated()
            .sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }
            .map(\.element)
    }
}

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
