/// Something an object's members can be emitted into, in order: a
/// `JSONObject` being built, or a `JSONObjectWriter` writing bytes. A type
/// that emits its members once through this gets both forms from one list.
public protocol JSONMemberSink {
    mutating func string(_ name: String, _ value: String)
    mutating func number(_ name: String, _ value: JSONNumber)
    mutating func value(_ name: String, _ value: JSONValue)
}

extension JSONObject: JSONMemberSink {
    public mutating func string(_ name: String, _ value: String) { appendNew(name, .string(value)) }
    public mutating func number(_ name: String, _ value: JSONNumber) { appendNew(name, .number(value)) }
    public mutating func value(_ name: String, _ value: JSONValue) { appendNew(name, value) }
}

/// Writes one JSON object member by member straight into bytes, for hot
/// paths that would otherwise build a `JSONObject` only to serialize it and
/// free it (an outcome per notification). The text is what
/// `JSONValue.serialized` gives for the same members in the same order.
public struct JSONObjectWriter: JSONMemberSink {
    private var bytes: [UInt8]
    private var empty = true

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSONValue.writeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ name: String, _ value: String) {
        key(name)
        JSONValue.writeString(value, into: &bytes)
    }

    public mutating func number(_ name: String, _ value: JSONNumber) {
        key(name)
        bytes.append(contentsOf: value.text.utf8)
    }

    public mutating func value(_ name: String, _ value: JSONValue) {
        key(name)
        value.write(into: &bytes)
    }

    /// Closes the object and returns its bytes.
    public consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
