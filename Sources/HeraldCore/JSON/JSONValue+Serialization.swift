// Compact serialization: members in order, numbers as their literal text,
// strings escaped minimally (non-ASCII is written as UTF-8).

extension JSONValue {
    /// Appends the compact JSON text of the value to `output`.
    public func write(into output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let value):
            output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number):
            output.append(contentsOf: number.text.utf8)
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, key) in object.keys.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                object.values[position].write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text as bytes.
    public var serialized: [UInt8] {
        var output: [UInt8] = []
        // A push body is a few hundred bytes to a few KiB: one allocation
        // instead of the seven or so that doubling from empty would take.
        output.reserveCapacity(1024)
        write(into: &output)
        return output
    }

    /// The compact JSON text as a string.
    public var jsonString: String {
        String(decoding: serialized, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal: `"` and `\` escaped, control
    /// characters as `\n`-style short escapes or `\u00XX`, everything else
    /// copied as UTF-8 in runs.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while let found = JSONByteScan.firstNeedingEscape(in: utf8, from: index) {
                index = found + 1
                let byte = utf8[found]
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<found]))
                runStart = found + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    // Below 0x20: the high digit is 0 or 1, the low one 0-9 or a-f.
                    let low = byte & 0x0F
                    output.append(contentsOf: "u00".utf8)
                    output.append(UInt8(ascii: "0") + (byte >> 4))
                    output.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
