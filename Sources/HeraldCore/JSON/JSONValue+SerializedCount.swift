// The length of the compact serialization, computed without writing it: size
// checks (FCM's payload limits) need the number, not the bytes. Follows
// `write(into:)` rule for rule; `JSONSerializedCountTests` holds the two together.

extension JSONValue {
    /// `serialized.count`, without allocating the bytes.
    public var serializedCount: Int {
        switch self {
        case .null: 4
        case .bool(let value): value ? 4 : 5
        case .number(let number): number.text.utf8.count
        case .string(let string): Self.serializedCount(of: string)
        case .array(let elements):
            2 + max(0, elements.count - 1) + elements.reduce(0) { $0 + $1.serializedCount }
        case .object(let object): object.serializedCount(excluding: [])
        }
    }

    /// The length of `string` as a JSON string literal (quotes and escapes included).
    static func serializedCount(of string: String) -> Int {
        var string = string
        return string.withUTF8 { utf8 in
            var count = 2 + utf8.count
            var index = 0
            while let found = JSONByteScan.firstNeedingEscape(in: utf8, from: index) {
                switch utf8[found] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09: count += 1
                default: count += 5
                }
                index = found + 1
            }
            return count
        }
    }
}

extension JSONObject {
    /// The serialized length of this object without the members named in `excluded`.
    public func serializedCount(excluding excluded: Set<String>) -> Int {
        var count = 2
        var members = 0
        for (position, key) in keys.enumerated() where excluded.isEmpty || !excluded.contains(key) {
            count += JSONValue.serializedCount(of: key) + 1 + values[position].serializedCount
            members += 1
        }
        return count + Swift.max(0, members - 1)
    }
}
