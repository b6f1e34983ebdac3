@testable import HeraldCore
import Testing

@Suite struct TopicPatternTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let pattern: String
        let key: String
        let matches: Bool
        var testDescription: String { "\(pattern) \(matches ? "~" : "!~") '\(key)'" }
    }

    static let cases: [Case] = [
        // literal words
        Case(pattern: "chat.message", key: "chat.message", matches: true),
        Case(pattern: "chat.message", key: "chat.messages", matches: false),
        Case(pattern: "chat.message", key: "chat", matches: false),
        Case(pattern: "chat", key: "chat.message", matches: false),
        // `*` is exactly one word
        Case(pattern: "a.*.c", key: "a.b.c", matches: true),
        Case(pattern: "a.*.c", key: "a.c", matches: false),
        Case(pattern: "a.*.c", key: "a.b.b.c", matches: false),
        Case(pattern: "*", key: "a", matches: true),
        Case(pattern: "*", key: "a.b", matches: false),
        Case(pattern: "*", key: "", matches: false),
        Case(pattern: "a.*", key: "a.", matches: true),  // one empty word
        Case(pattern: "a.*.b", key: "a..b", matches: true),
        // `#` is zero or more words
        Case(pattern: "#", key: "", matches: true),
        Case(pattern: "#", key: "a", matches: true),
        Case(pattern: "#", key: "a.b.c", matches: true),
        Case(pattern: "marketing.#", key: "marketing", matches: true),  // # matches zero words
        Case(pattern: "marketing.#", key: "marketing.fr.promo", matches: true),
        Case(pattern: "marketing.#", key: "marketingx", matches: false),
        Case(pattern: "marketing.#", key: "chat.marketing", matches: false),
        Case(pattern: "#.promo", key: "promo", matches: true),
        Case(pattern: "#.promo", key: "a.b.promo", matches: true),
        Case(pattern: "#.promo", key: "a.promo.b", matches: false),
        Case(pattern: "a.#.c", key: "a.c", matches: true),
        Case(pattern: "a.#.c", key: "a.x.y.c", matches: true),
        Case(pattern: "a.#.c", key: "a.x.y.d", matches: false),
        Case(pattern: "#.b.#", key: "a.b.c", matches: true),
        Case(pattern: "#.b.#", key: "b", matches: true),
        Case(pattern: "#.b.#", key: "a.c", matches: false),
        Case(pattern: "#.#", key: "", matches: true),
        Case(pattern: "*.#", key: "", matches: false),
        Case(pattern: "*.#", key: "a", matches: true),
        Case(pattern: "#.*", key: "a.b", matches: true),
        Case(pattern: "a.#.*.c", key: "a.b.c", matches: true),
        Case(pattern: "a.#.*.c", key: "a.c", matches: false),
        // empty pattern matches only the empty key
        Case(pattern: "", key: "", matches: true),
        Case(pattern: "", key: "a", matches: false),
    ]

    @Test(arguments: cases)
    func matchesLikeRabbitMQ(_ c: Case) {
        #expect(TopicPattern(c.pattern).matches(c.key) == c.matches)
    }

    @Test func manyHashesDoNotBlowUp() {
        let pattern = TopicPattern(Array(repeating: "#", count: 30).joined(separator: ".") + ".z")
        let key = Array(repeating: "a", count: 200).joined(separator: ".")
        #expect(!pattern.matches(key))
        #expect(pattern.matches(key + ".z"))
    }
}
