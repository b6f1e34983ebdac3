/// A position in the YAML source, 1-based, so every error and every validator
/// can point the reader at the exact line and column.
public struct YAMLMark: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line; 0 means "the file as a whole" (unreadable, not UTF-8).
    public var line: Int
    /// 1-based column, counted in Unicode scalars; 0 when `line` is 0.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The mark of file-level problems, rendered without a position.
    public static let wholeFile = YAMLMark(line: 0, column: 0)

    public var description: String { "\(line):\(column)" }
}
