/// Finds the bytes a JSON string literal must escape (`"`, `\` and controls
/// below 0x20) eight at a time: strings in push payloads and outcomes rarely
/// hold any, so the writer mostly copies whole runs, and the parser finds a
/// string's closing quote in a few steps.
enum JSONByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first byte at or after `start` that needs escaping, if any.
    static func firstNeedingEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let flagged = below(word, 0x20) | equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\"))
                // The lowest flagged byte is exact (borrows only carry upwards);
                // bytes above it may be flagged falsely, and are looked at again.
                if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return nil
    }

    /// `true` when a byte in `start..<end` is 0x80 or above (not ASCII).
    static func containsNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var seen: UInt64 = 0
            while index + 8 <= end {
                seen |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            if seen & highBits != 0 { return true }
        }
        while index < end {
            if bytes[index] >= 0x80 { return true }
            index += 1
        }
        return false
    }

    /// High bit set in each byte of `word` below `limit` (at most 0x80).
    private static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// High bit set in each byte of `word` equal to `byte`.
    private static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (ones &* UInt64(byte)), 1)
    }
}
