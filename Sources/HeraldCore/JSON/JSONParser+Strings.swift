// Strings: scan to the closing quote, slice, validate once.

extension JSONParser {
    /// Parses the string whose opening quote is at `position`.
    ///
    /// The common case (no escapes) makes the `String` straight from the
    /// buffer slice; escapes are decoded into a reused scratch buffer.
    mutating func parseString() throws(JSONError) -> String {
        let openQuote = position
        let contentStart = position + 1
        // The closing quote, a backslash or a control character: whichever comes first.
        guard let index = JSONByteScan.firstNeedingEscape(in: bytes, from: contentStart) else {
            throw error(.unterminatedString, at: openQuote)
        }
        let sawNonASCII = JSONByteScan.containsNonASCII(in: bytes, from: contentStart, to: index)
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
            position = index + 1
            let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
            return try makeString(content, validating: sawNonASCII, sourceStart: contentStart, sourceEnd: index)
        }
        if byte == UInt8(ascii: "\\") {
            return try parseEscapedString(openQuote: openQuote, firstEscape: index, sawNonASCII: sawNonASCII)
        }
        throw error(.controlCharacterInString(byte), at: index)
    }

    /// The slow path, from the first backslash on.
    private mutating func parseEscapedString(openQuote: Int, firstEscape: Int, sawNonASCII: Bool) throws(JSONError)
        -> String
    {
        let contentStart = openQuote + 1
        var sawNonASCII = sawNonASCII
        scratch.removeAll(keepingCapacity: true)
        var runStart = contentStart
        var index = firstEscape
        while true {
            guard index < bytes.count else { throw error(.unterminatedString, at: openQuote) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                break
            }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index = try decodeEscape(at: index, openQuote: openQuote)
                runStart = index
                continue
            }
            if byte < 0x20 {
                throw error(.controlCharacterInString(byte), at: index)
            }
            if byte >= 0x80 {
                sawNonASCII = true
            }
            index += 1
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        position = index + 1
        let decoded = scratch
        return try decoded.withUnsafeBufferPointer { (content) throws(JSONError) -> String in
            try makeString(content, validating: sawNonASCII, sourceStart: contentStart, sourceEnd: index)
        }
    }

    /// Makes the `String`. Bytes copied from the input are validated here,
    /// once; escape output is valid by construction and, being either ASCII
    /// or a complete sequence, can never complete a broken input sequence,
    /// so a failure always lies in the input's `sourceStart..<sourceEnd`.
    private func makeString(
        _ content: UnsafeBufferPointer<UInt8>, validating: Bool, sourceStart: Int, sourceEnd: Int
    ) throws(JSONError) -> String {
        guard validating else { return String(decoding: content, as: UTF8.self) }
        if let string = String(validating: content, as: UTF8.self) {
            return string
        }
        let offset = UTF8Validation.firstInvalidOffset(in: bytes, from: sourceStart, to: sourceEnd) ?? sourceStart
        throw error(.invalidUTF8, at: offset)
    }

    /// Decodes the escape whose backslash is at `start` into `scratch` and
    /// returns the offset just past it.
    private mutating func decodeEscape(at start: Int, openQuote: Int) throws(JSONError) -> Int {
        guard start + 1 < bytes.count else { throw error(.unterminatedString, at: openQuote) }
        let simple: UInt8
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: start)
        default:
            throw error(.invalidEscape(sequence: escapeText(at: start, length: 2), detail: nil), at: start)
        }
        scratch.append(simple)
        return start + 2
    }

    /// `\uXXXX`, or a `\uD8xx\uDCxx` surrogate pair.
    private mutating func decodeUnicodeEscape(at start: Int) throws(JSONError) -> Int {
        guard let first = hexQuad(at: start + 2) else {
            throw error(
                .invalidEscape(sequence: escapeText(at: start, length: 6), detail: "expected 4 hex digits after \\u"),
                at: start)
        }
        var scalar = first
        var end = start + 6
        switch first {
        case 0xD800...0xDBFF:
            guard end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u") else {
                throw error(.loneSurrogate(sequence: escapeText(at: start, length: 6)), at: start)
            }
            guard let second = hexQuad(at: end + 2) else {
                throw error(
                    .invalidEscape(sequence: escapeText(at: end, length: 6), detail: "expected 4 hex digits after \\u"),
                    at: end)
            }
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error(.loneSurrogate(sequence: escapeText(at: start, length: 6)), at: start)
            }
            scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw error(.loneSurrogate(sequence: escapeText(at: start, length: 6)), at: start)
        default:
            break
        }
        appendUTF8(scalar)
        return end
    }

    /// The value of four hex digits at `offset`, if there are four.
    private func hexQuad(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Up to `length` bytes of an escape as printable text for a message;
    /// stops at the first byte that is not printable ASCII.
    private func escapeText(at start: Int, length: Int) -> String {
        var text = ""
        var index = start
        while index < min(start + length, bytes.count) {
            let byte = bytes[index]
            guard byte > 0x20, byte < 0x7F else { break }
            text.append(Character(Unicode.Scalar(byte)))
            index += 1
        }
        return text
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
