/// Why a JSON text was refused, and where.
///
/// Every message names the byte offset (0-based) and, for people reading a
/// multi-line body, the line and column (1-based; the column counts bytes):
/// `unexpected 'x' at byte 5 (line 1, column 6): expected a value`.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A byte sequence that is not UTF-8 (truncated, overlong, a surrogate, > U+10FFFF).
        case invalidUTF8
        /// `found` (already rendered: `'x'`, `U+0007`) where `expected` was due.
        case unexpectedCharacter(found: String, expected: String)
        /// The input ended where `expected` was due.
        case unexpectedEnd(expected: String)
        /// A number that breaks the grammar; `detail` says how.
        case invalidNumber(detail: String)
        /// Something starting like `true`, `false` or `null` that is not.
        case invalidLiteral(expected: String)
        /// A backslash escape that is not one of RFC 8259's.
        case invalidEscape(sequence: String, detail: String?)
        /// A `\uD800`-`\uDFFF` escape that is not half of a surrogate pair.
        case loneSurrogate(sequence: String)
        /// A byte below 0x20 inside a string: it must be escaped.
        case controlCharacterInString(UInt8)
        /// A string whose closing quote never comes (position: its opening quote).
        case unterminatedString
        /// A key that appears twice in one object (position: the second one).
        case duplicateKey(String)
        /// An array or object nested deeper than the limit.
        case tooDeep(limit: Int)
        /// Bytes other than whitespace after the value.
        case trailingData
        /// The input is larger than the limit (checked before parsing).
        case tooLarge(size: Int, limit: Int)
    }

    /// Where an error is, in a text.
    public struct Position: Sendable, Hashable {
        /// Byte offset from the start, 0-based.
        public let offset: Int
        /// Line, 1-based.
        public let line: Int
        /// Column in bytes from the line's start, 1-based.
        public let column: Int
    }

    public let kind: Kind
    /// Where; `nil` only for ``Kind/tooLarge(size:limit:)``.
    public let position: Position?

    public init(_ kind: Kind, position: Position?) {
        self.kind = kind
        self.position = position
    }

    /// The byte offset, if the error has a position.
    public var offset: Int? { position?.offset }

    public var description: String {
        let at = position.map { " at byte \($0.offset) (line \($0.line), column \($0.column))" } ?? ""
        switch kind {
        case .invalidUTF8:
            return "invalid UTF-8\(at)"
        case .unexpectedCharacter(let found, let expected):
            return "unexpected \(found)\(at): \(expected)"
        case .unexpectedEnd(let expected):
            return "unexpected end of input\(at): \(expected)"
        case .invalidNumber(let detail):
            return "invalid number\(at): \(detail)"
        case .invalidLiteral(let expected):
            return "invalid literal\(at): expected \(expected)"
        case .invalidEscape(let sequence, let detail):
            return "invalid escape '\(sequence)'\(at)" + (detail.map { ": \($0)" } ?? "")
        case .loneSurrogate(let sequence):
            return
                "lone surrogate '\(sequence)'\(at): a surrogate must be half of a \\uD800-\\uDBFF\\uDC00-\\uDFFF pair"
        case .controlCharacterInString(let byte):
            return "unescaped control character \(JSONText.scalarName(UInt32(byte))) in a string\(at)"
        case .unterminatedString:
            return "unterminated string starting\(at)"
        case .duplicateKey(let key):
            return "duplicate key \(JSONText.quoted(key))\(at)"
        case .tooDeep(let limit):
            return "nesting deeper than \(limit) levels\(at)"
        case .trailingData:
            return "unexpected data after the JSON value\(at)"
        case .tooLarge(let size, let limit):
            return "JSON body is \(size) bytes, over the limit of \(limit)"
        }
    }
}
