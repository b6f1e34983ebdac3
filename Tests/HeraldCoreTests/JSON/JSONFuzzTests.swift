import Testing
@testable import HeraldCore

/// Deterministic, so a failing case can be replayed.
private typealias SeededGenerator = SplitMix64

@Suite("Never crash on any input")
struct JSONFuzzTests {
    private static let fragments: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "D83D", "\\uDE00", "0", "-", "1.5e3", "e", ".", "true",
            "nul", " ", "\n", "\"k\"", "\"k\":", "é", "😀",
        ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x00], [0xE2, 0x82]]

    @Test func randomTokenSoupEitherParsesOrThrows() throws {
        var random = SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...24, using: &random) {
                bytes += Self.fragments.randomElement(using: &random) ?? []
            }
            if let value = try? JSONValue.parse(bytes) {
                #expect(try JSONValue.parse(value.serialized) == value)
                #expect(value.serializedCount == value.serialized.count)
            }
        }
    }

}
