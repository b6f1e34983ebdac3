import HeraldCore

/// Why a registry command was refused before the store was touched: the
/// field and what is wrong with it, e.g.
/// `channels[1]: channel has a control character (U+0007) at byte 4; control characters are not allowed`.
///
/// A refused AMQP command becomes a `registry_rejected` result whose
/// `reason` is ``description`` and goes to the dead-letter queue with it; the
/// CLI prints it with the field as its option (`--channel`). The message must
/// let the sender fix the command without reading Herald's code.
public struct RegistryCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where: a field of the body (`app`, `channels[2]`, `new_token`),
    /// `routing_key` (the command's kind), `body` (the bytes themselves) or
    /// `command` (the document as a whole).
    public let field: String
    /// What is wrong, and what would be right.
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    init(_ error: EventError) {
        self.init(field: error.field, message: error.message)
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}
