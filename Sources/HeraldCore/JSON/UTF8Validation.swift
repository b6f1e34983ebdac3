/// Byte-level UTF-8 checks for the parser's error paths and for bytes
/// outside strings. Strings themselves are validated once, by the standard
/// library, when they are created; this finds the offending offset only
/// after that has failed.
enum UTF8Validation {
    /// The length of the well-formed UTF-8 sequence at `start` (RFC 3629
    /// table 3-7: no overlongs, no surrogates, nothing above U+10FFFF), or
    /// `nil` if the bytes there are not one.
    static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Int? {
        guard start < end else { return nil }
        let lead = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard end - start >= length else { return nil }
        let second = bytes[start + 1]
        guard second >= low, second <= high else { return nil }
        for offset in 2..<length {
            let continuation = bytes[start + offset]
            guard continuation >= 0x80, continuation <= 0xBF else { return nil }
        }
        return length
    }

    /// The offset of the first ill-formed sequence in `start..<end`, or `nil`.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var position = start
        while position < end {
            guard let length = sequenceLength(in: bytes, at: position, end: end) else { return position }
            position += length
        }
        return nil
    }

    /// The scalar encoded at `start`, if the bytes there are well-formed.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Unicode.Scalar? {
        guard let length = sequenceLength(in: bytes, at: start, end: bytes.count) else { return nil }
        var value = UInt32(bytes[start])
        if length > 1 {
            value &= [0, 0, 0x1F, 0x0F, 0x07][length]
            for offset in 1..<length {
                value = value << 6 | UInt32(bytes[start + offset] & 0x3F)
            }
        }
        return Unicode.Scalar(value)
    }
}
