/// A strict RFC 8259 parser over a byte buffer.
///
/// One forward pass, no recursion: open arrays and objects live on an
/// explicit stack whose height is checked against ``JSONLimits/maxDepth``
/// before it grows, so `[[[[…` a million deep is an error, not a crash.
/// Strings are sliced from the buffer and validated once, by the standard
/// library's UTF-8 check, when the `String` is made.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    /// The next byte to read.
    var position = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Parses the whole input: one value, optional whitespace around it,
    /// nothing else.
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JSONError(.tooLarge(size: bytes.count, limit: limits.maxBytes), position: nil)
        }
        let value = try parseValueTree()
        skipWhitespace()
        if position < bytes.count {
            throw error(.trailingData, at: position)
        }
        return value
    }

    /// An array or object being filled. Its elements (and keys) wait on the
    /// parser's shared stacks from `start` on, and move into an array of
    /// exactly the right size when it closes: one allocation per container
    /// instead of one per doubling.
    private struct OpenContainer {
        let isObject: Bool
        /// Where this container's elements start on the values stack.
        let start: Int
        /// Where an object's keys start on the keys stack.
        let keyStart: Int
        /// The container's keys, once it has more than a few, for duplicate checks.
        var keySet: Set<String>?
    }

    private mutating func parseValueTree() throws(JSONError) -> JSONValue {
        var open: [OpenContainer] = []
        var values: [JSONValue] = []
        var keys: [String] = []
        while true {
            // 1. Read a scalar, or open a container and go read its first element.
            skipWhitespace()
            guard position < bytes.count else { throw unexpectedEnd(expected: "expected a value") }
            var value: JSONValue
            switch bytes[position] {
            case UInt8(ascii: "{"):
                guard open.count < limits.maxDepth else { throw error(.tooDeep(limit: limits.maxDepth), at: position) }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object(JSONObject())
                } else {
                    open.append(OpenContainer(isObject: true, start: values.count, keyStart: keys.count))
                    try readKey(into: &open, keys: &keys, expected: "expected a string key or '}'")
                    continue
                }
            case UInt8(ascii: "["):
                guard open.count < limits.maxDepth else { throw error(.tooDeep(limit: limits.maxDepth), at: position) }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    open.append(OpenContainer(isObject: false, start: values.count, keyStart: keys.count))
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw unexpected(at: position, expected: "expected a value")
            }

            // 2. Hand the value to the innermost open container; close every
            //    container that ends here; stop at a ',' (more to read) or at
            //    the top level (done).
            while true {
                guard let container = open.last else { return value }
                values.append(value)
                skipWhitespace()
                let close = container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let expected = container.isObject ? "expected ',' or '}'" : "expected ',' or ']'"
                guard position < bytes.count else { throw unexpectedEnd(expected: expected) }
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if position < bytes.count, bytes[position] == close {
                        throw unexpected(at: position, expected: "trailing commas are not allowed")
                    }
                    if container.isObject {
                        try readKey(into: &open, keys: &keys, expected: "expected a string key")
                    }
                    break
                } else if byte == close {
                    position += 1
                    open.removeLast()
                    let elements = Array(values[container.start...])
                    values.removeSubrange(container.start...)
                    if container.isObject {
                        let names = Array(keys[container.keyStart...])
                        keys.removeSubrange(container.keyStart...)
                        value = .object(JSONObject(uniqueKeys: names, values: elements))
                    } else {
                        value = .array(elements)
                    }
                } else {
                    throw unexpected(at: position, expected: expected)
                }
            }
        }
    }

    /// Reads `"key" :` for the innermost (object) container onto `keys`,
    /// refusing a key the object already has.
    private mutating func readKey(
        into open: inout [OpenContainer], keys: inout [String], expected: String
    ) throws(JSONError) {
        skipWhitespace()
        guard position < bytes.count else { throw unexpectedEnd(expected: expected) }
        guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected(at: position, expected: expected) }
        let keyOffset = position
        let key = try parseString()
        let top = open.count - 1
        let start = open[top].keyStart
        if open[top].keySet != nil {
            if open[top].keySet?.insert(key).inserted == false {
                throw error(.duplicateKey(key), at: keyOffset)
            }
        } else {
            if keys[start...].contains(key) {
                throw error(.duplicateKey(key), at: keyOffset)
            }
            if keys.count - start >= JSONObject.indexThreshold {
                open[top].keySet = Set(keys[start...] + [key])
            }
        }
        keys.append(key)
        skipWhitespace()
        guard position < bytes.count else { throw unexpectedEnd(expected: "expected ':'") }
        guard bytes[position] == UInt8(ascii: ":") else { throw unexpected(at: position, expected: "expected ':'") }
        position += 1
    }

    /// Skips RFC 8259 whitespace: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: Errors

    /// An error of `kind` at `offset`, with its line and column.
    func error(_ kind: JSONError.Kind, at offset: Int) -> JSONError {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset, index < bytes.count {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return JSONError(kind, position: .init(offset: offset, line: line, column: offset - lineStart + 1))
    }

    func unexpectedEnd(expected: String) -> JSONError {
        error(.unexpectedEnd(expected: expected), at: bytes.count)
    }

    /// "unexpected X" for the byte at `offset`, or "invalid UTF-8" if the
    /// bytes there are not a character at all.
    func unexpected(at offset: Int, expected: String) -> JSONError {
        let byte = bytes[offset]
        let found: String
        if byte >= 0x80 {
            guard let scalar = UTF8Validation.scalar(in: bytes, at: offset) else {
                return error(.invalidUTF8, at: offset)
            }
            found = JSONText.scalarName(scalar.value)
        } else if byte > 0x20, byte < 0x7F {
            found = "'\(Character(Unicode.Scalar(byte)))'"
        } else {
            found = JSONText.scalarName(UInt32(byte))
        }
        return error(.unexpectedCharacter(found: found, expected: expected), at: offset)
    }
}
