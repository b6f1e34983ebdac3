import HeraldCore

/// Why a registry command was refused before the store was touched: the
/// field and what is wrong with it, as an event's refusal says it (the same
/// type, so the same `FieldReader` messages), e.g.
/// `channels[1]: channel has a control character (U+0007) at byte 4; control characters are not allowed`.
///
/// Besides a body field, `field` may be `routing_key` (the command's kind),
/// `body` (the bytes themselves) or `command` (the document as a whole). A
/// refused AMQP command's `registry_rejected` result and dead letter carry
/// its `description`; the CLI prints it with the field as its option.
public typealias RegistryCommandError = EventError
