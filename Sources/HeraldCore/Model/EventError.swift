/// Why an event (or an outcome document) was refused: the field path and
/// what was expected versus found, e.g.
/// `targets[1]: has both "token" and "topic"; give exactly one`.
///
/// A refused event becomes a `rejected` outcome and goes to the dead-letter
/// queue with ``description`` in `x-herald-error`, so the message must let
/// the sender fix the event without reading Herald's code. A refused registry
/// command is said the same way (`RegistryCommandError` is this type).
public struct EventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where: a path like `targets[1].token`, `notification.badge`, `body`
    /// (the bytes themselves) or `event` (the document as a whole).
    public let field: String
    /// What is wrong, and what would be right.
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}

extension EventError {
    /// `expected <expected>, found <value>`.
    package static func mismatch(_ field: String, expected: String, found value: JSONValue) -> EventError {
        EventError(field: field, message: "expected \(expected), found \(describe(value))")
    }

    /// A value as a message shows it: strings and numbers literally
    /// (shortened), containers by kind.
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.text.count > 40 ? String(number.text.prefix(40)) + "…" : number.text
        case .string(let string): JSONText.quoted(string, limit: 40)
        case .array, .object: value.kindDescription
        }
    }

    /// `"a", "b" or "c"`-style list of names for messages.
    package static func list(_ names: [String], quoted: Bool = false) -> String {
        let shown = quoted ? names.map { JSONText.quoted($0) } : names
        guard shown.count > 1, let last = shown.last else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " or " + last
    }
}
