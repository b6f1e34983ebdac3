/// The source text seen as lines, for the two positions libyaml cannot give:
/// a reader error (a byte offset) and a `${` inside a scalar. Only used on
/// error paths.
struct SourceText {
    let text: String

    /// The line/column of a byte offset into the UTF-8 text.
    func mark(ofByteOffset offset: Int) -> YAMLMark {
        var line = 1
        var column = 1
        for byte in text.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return YAMLMark(line: line, column: column)
    }

    /// The scalars of a 1-based line starting at a 1-based column, or nil
    /// when the position is outside the text.
    func scalars(line: Int, fromColumn column: Int) -> Substring.UnicodeScalarView? {
        guard line >= 1, column >= 1 else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line <= lines.count else { return nil }
        let scalars = lines[line - 1].unicodeScalars
        guard column - 1 <= scalars.count else { return nil }
        return scalars.dropFirst(column - 1)
    }
}
