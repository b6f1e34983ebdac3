import Testing
@testable import HeraldCore

@Suite("JSON parsing: UTF-8 validation")
struct JSONUTF8Tests {
    /// `"ab<bytes>"`: the bad sequence starts at byte 3.
    private func quoted(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "\""), UInt8(ascii: "a"), UInt8(ascii: "b")] + bytes + [UInt8(ascii: "\"")]
    }

    @Test(
        arguments: [
            ("0xFF", [0xFF]),
            ("0xFE", [0xFE]),
            ("lone continuation byte", [0x80]),
            ("overlong '/' in 2 bytes", [0xC0, 0xAF]),
            ("overlong 0xC1", [0xC1, 0xBF]),
            ("overlong in 3 bytes", [0xE0, 0x80, 0xAF]),
            ("overlong in 4 bytes", [0xF0, 0x80, 0x80, 0xAF]),
            ("surrogate U+D800 encoded", [0xED, 0xA0, 0x80]),
            ("surrogate U+DFFF encoded", [0xED, 0xBF, 0xBF]),
            ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
            ("lead byte 0xF5", [0xF5, 0x80, 0x80, 0x80]),
            ("truncated 2-byte sequence", [0xC3]),
            ("truncated 3-byte sequence", [0xE2, 0x82]),
            ("truncated 4-byte sequence", [0xF0, 0x9F, 0x98]),
            ("lead byte then ASCII", [0xC3, 0x41]),
        ] as [(String, [UInt8])])
    func invalidSequencesInStringsAreRefused(_ name: String, bytes: [UInt8]) {
        #expect(parseError(quoted(bytes)) == "invalid UTF-8 at byte 3 (line 1, column 4)", "\(name)")
    }

    @Test(
        arguments: [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ] as [[UInt8]])
    func boundarySequencesAreAccepted(bytes: [UInt8]) throws {
        let value = try JSONValue.parse(quoted(bytes))
        #expect(value.stringValue.map { Array($0.utf8) } == [UInt8(ascii: "a"), UInt8(ascii: "b")] + bytes)
    }

    @Test func theOffsetPointsAtTheBadSequenceEvenAfterEscapesAndValidCharacters() {
        let bytes = Array(#"{"k": "é\n€"#.utf8) + [0xE2, 0x28, 0xA1] + Array(#""}"#.utf8)
        // {"k": "é\n€ is 1+3+1+1+1 + 2+2+3 = 14 bytes before the bad sequence.
        #expect(parseError(bytes) == "invalid UTF-8 at byte 14 (line 1, column 15)")
    }

    @Test func invalidBytesInKeysAreRefused() {
        let bytes = Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)
        #expect(parseError(bytes) == "invalid UTF-8 at byte 2 (line 1, column 3)")
    }

    @Test func invalidBytesOutsideStringsAreReportedAsInvalidUTF8() {
        #expect(parseError([0xFF]) == "invalid UTF-8 at byte 0 (line 1, column 1)")
        #expect(
            parseError(Array("[1, ".utf8) + [0xC0, 0x80] + Array("]".utf8))
                == "invalid UTF-8 at byte 4 (line 1, column 5)")
        #expect(parseError(Array("[1".utf8) + [0xED, 0xA0, 0x80]) == "invalid UTF-8 at byte 2 (line 1, column 3)")
    }
}
