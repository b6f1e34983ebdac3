// Entry points of the parser; see `JSONParser` for how it works.

extension JSONValue {
    /// Parses a complete JSON text: strict RFC 8259 (UTF-8 only, no
    /// comments, no trailing commas, no leading zeros, no NaN, no bytes after
    /// the value) plus two rules of Herald's: a key may appear only once per
    /// object, and `limits` bound the size and nesting.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> JSONValue in
                var parser = JSONParser(bytes: buffer, limits: limits)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses a JSON text held in memory Herald does not own (an AMQP
    /// message body), without copying it first.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws(JSONError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: bytes.assumingMemoryBound(to: UInt8.self), limits: limits)
        return try parser.parseDocument()
    }

    /// Parses a JSON text given as a string (tests, configuration).
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in
                var parser = JSONParser(bytes: buffer, limits: limits)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }
}
