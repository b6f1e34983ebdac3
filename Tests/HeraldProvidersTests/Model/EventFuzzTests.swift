import HeraldCore
import HeraldProviders
import Testing

/// Deterministic, so a failing case can be replayed.
private typealias SeededGenerator = SplitMix64

@Suite("Never crash on any event")
struct EventFuzzTests {
    private static let fragments: [[UInt8]] =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "D83D", "\\uDE00", "0", "-", "1.5e3", "e", ".", "true",
            "nul", " ", "\n", "\"k\"", "\"k\":", "é", "😀",
        ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x00], [0xE2, 0x82]]

    @Test func mutatedEventsEitherDecodeOrAreRejected() throws {
        var random = SeededGenerator(seed: 7)
        let original = Array(RegisteredEventDecodingTests.everyFieldExample.utf8)
        var decoded = 0
        for _ in 0..<5_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: position)
                default: bytes.insert(contentsOf: Self.fragments.randomElement(using: &random) ?? [], at: position)
                }
            }
            do {
                _ = try Event.decode(bytes, fallbackID: "m", providers: .registered)
                decoded += 1
            } catch {
                #expect(!error.field.isEmpty)
                #expect(!error.message.isEmpty)
            }
        }
        #expect(decoded > 0)
    }
}
