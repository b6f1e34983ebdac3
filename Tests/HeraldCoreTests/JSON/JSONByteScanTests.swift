import Testing
@testable import HeraldCore

@Suite struct JSONByteScanTests {
    /// The byte-at-a-time answer the word-at-a-time scan must match.
    private func reference(_ bytes: [UInt8], from start: Int) -> Int? {
        bytes.indices.dropFirst(start).first { bytes[$0] < 0x20 || bytes[$0] == 0x22 || bytes[$0] == 0x5C }
    }

    private func scan(_ bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { JSONByteScan.firstNeedingEscape(in: $0, from: start) }
    }

    @Test func everySpecialByteIsFoundAtEveryPositionOfAWord() {
        let specials: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C]
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        for length in 0...19 {
            for position in 0..<max(length, 1) where position < length {
                for special in specials {
                    var bytes = (0..<length).map { plain[$0 % plain.count] }
                    bytes[position] = special
                    #expect(
                        scan(bytes, from: 0) == position,
                        "length \(length), 0x\(String(special, radix: 16)) at \(position)")
                }
            }
            #expect(scan((0..<length).map { plain[$0 % plain.count] }, from: 0) == nil)
        }
    }

    @Test func randomBytesAgreeWithTheByteByByteScan() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &generator)
            // Mostly printable bytes, with a special one now and then, so matches land anywhere.
            let bytes = (0..<length).map { _ -> UInt8 in
                Int.random(in: 0..<12, using: &generator) == 0
                    ? [0x05, 0x22, 0x5C][Int.random(in: 0..<3, using: &generator)]
                    : UInt8.random(in: 0x20...0xFF, using: &generator)
            }
            let start = length == 0 ? 0 : Int.random(in: 0...length, using: &generator)
            #expect(scan(bytes, from: start) == reference(bytes, from: start), "\(bytes) from \(start)")
        }
    }

    @Test func nonASCIIIsFoundInAnyRangeOfRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ -> UInt8 in
                Int.random(in: 0..<20, using: &generator) == 0
                    ? UInt8.random(in: 0x80...0xFF, using: &generator)
                    : UInt8.random(in: 0x00...0x7F, using: &generator)
            }
            let start = Int.random(in: 0...length, using: &generator)
            let end = Int.random(in: start...length, using: &generator)
            let found = bytes.withUnsafeBufferPointer { JSONByteScan.containsNonASCII(in: $0, from: start, to: end) }
            #expect(found == bytes[start..<end].contains { $0 >= 0x80 }, "\(bytes) \(start)..<\(end)")
        }
    }

    @Test func writtenStringsEscapeWhatTheScanFinds() {
        let text = "plain text long enough for words \"quoted\" back\\slash tab\there\u{01} é and more text"
        #expect(
            JSONValue.string(text).jsonString
                == #""plain text long enough for words \"quoted\" back\\slash tab\there\u0001 é and more text""#)
    }
}
