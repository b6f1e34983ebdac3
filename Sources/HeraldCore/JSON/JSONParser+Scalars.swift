// Numbers and the literals true, false and null.

extension JSONParser {
    /// Parses the number starting at `position` per RFC 8259's grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = position
        var index = position
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber(detail: "expected a digit after '-'"), at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber(detail: "leading zeros are not allowed"), at: start)
            }
        } else {
            index = skipDigits(from: index)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber(detail: "expected a digit after '.'"), at: start)
            }
            index = skipDigits(from: index)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber(detail: "expected a digit in the exponent"), at: start)
            }
            index = skipDigits(from: index)
        }
        position = index
        return JSONNumber(
            uncheckedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// Consumes `literal` (`true`, `false`, `null`) at `position`.
    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else {
            throw error(.invalidLiteral(expected: literal.description), at: position)
        }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[position + offset] != expected[offset] {
            throw error(.invalidLiteral(expected: literal.description), at: position)
        }
        position += count
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func skipDigits(from start: Int) -> Int {
        var index = start
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
        return index
    }
}
