import HeraldCore
/// Reads one node as a Swift primitive, type-directed: the target type
/// decides how the scalar's text is read, and every failure says what was
/// expected and what was found, at the node's position.
struct ScalarReader {
    let node: YAMLNode
    let path: [any CodingKey]
    let session: DecodingSession

    var isNull: Bool { node.isNull }

    func string() throws(YAMLError) -> String {
        try text(expecting: "a string")
    }

    func bool() throws(YAMLError) -> Bool {
        let text = try text(expecting: "a boolean (true or false)")
        if let value = ScalarSyntax.bool(text) { return value }
        if ScalarSyntax.isYAML11Boolean(text) {
            throw fail(
                "expected a boolean, found '\(text.truncatedForMessage)' (write true or false; yes/no/on/off are not booleans here)"
            )
        }
        throw fail("expected a boolean (true or false), found \(node.foundDescription)")
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws(YAMLError) -> T {
        let text = try text(expecting: "an integer")
        switch ScalarSyntax.integer(text, as: T.self) {
        case .value(let value): return value
        case .invalid: throw fail("expected an integer, found \(node.foundDescription)")
        case .outOfRange:
            throw fail("expected an integer in \(T.min)...\(T.max), found \(node.foundDescription) (out of range)")
        }
    }

    func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws(YAMLError) -> T {
        let text = try text(expecting: "a number")
        switch ScalarSyntax.float(text, as: T.self) {
        case .value(let value): return value
        case .invalid: throw fail("expected a number, found \(node.foundDescription)")
        case .outOfRange:
            throw fail("expected a number within the range of \(T.self), found \(node.foundDescription) (out of range)")
        }
    }

    private func text(expecting expected: String) throws(YAMLError) -> String {
        guard let scalar = node.scalar else {
            throw fail("expected \(expected), found \(node.foundDescription)")
        }
        return scalar.value
    }

    private func fail(_ message: String) -> YAMLError {
        session.error(message, at: node, path: path)
    }
}
