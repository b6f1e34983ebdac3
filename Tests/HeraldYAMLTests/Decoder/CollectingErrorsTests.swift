import Testing
import HeraldYAML

/// `decodeCollectingErrors`: decoding goes on after unknown keys and failing
/// optional values, reports them all sorted by position, and still ends at a
/// missing required key, with what it found before.
@Suite struct CollectingErrorsTests {
    struct AMQP: Decodable {
        var url: String
        var prefetch: Int?
        var queue: String?
    }

    struct Retry: Decodable {
        var max_attempts: Int
        var delays: [String]?
    }

    struct Config: Decodable {
        var retry: Retry?
        var amqp: AMQP
    }

    /// Every error `decodeCollectingErrors` reports, rendered, whether it made a value or threw.
    func collectedErrors<T: Decodable>(_ type: T.Type, _ text: String) throws -> [String] {
        let document = try load(text)
        do {
            return try document.decodeCollectingErrors(type).errors.map(\.description)
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func everyUnknownKeyIsReportedSortedByPosition() throws {
        let errors = try collectedErrors(Config.self, "extra: 1\namqp: {url: x, queeu: q, b: 1}\nzzz: 2\n")
        #expect(
            errors == [
                "config.yaml:1:1: extra: unknown key 'extra' (expected one of: retry, amqp)",
                "config.yaml:2:16: amqp.queeu: unknown key 'queeu' (did you mean 'queue'?)",
                "config.yaml:2:26: amqp.b: unknown key 'b' (expected one of: url, prefetch, queue)",
                "config.yaml:3:1: zzz: unknown key 'zzz' (expected one of: retry, amqp)",
            ])
    }

    @Test func aFailingOptionalValueIsNilAndDecodingGoesOn() throws {
        let result = try load("amqp: {url: x, prefetch: lots, queue: q}\n").decodeCollectingErrors(Config.self)
        #expect(result.value.amqp.prefetch == nil)
        #expect(result.value.amqp.queue == "q")
        #expect(
            result.errors.map(\.description) == ["config.yaml:1:26: amqp.prefetch: expected an integer, found 'lots'"])
    }

    @Test func decodeStopsAtTheFirstErrorThatCollectingGoesOnAfter() throws {
        let text = "amqp: {url: x, prefetch: lots, queu: q}\n"
        #expect(errorText(Config.self, text) == "config.yaml:1:26: amqp.prefetch: expected an integer, found 'lots'")
        #expect(
            try collectedErrors(Config.self, text) == [
                "config.yaml:1:26: amqp.prefetch: expected an integer, found 'lots'",
                "config.yaml:1:32: amqp.queu: unknown key 'queu' (did you mean 'queue'?)",
            ])
    }

    @Test func anOptionalWhoseRequiredValueFailsIsLeftOutWhole() throws {
        let result = try load("retry: {max_attempts: [5], delays: [5s]}\namqp: {url: x}\n").decodeCollectingErrors(
            Config.self)
        #expect(result.value.retry == nil)
        #expect(
            result.errors.map(\.description) == [
                "config.yaml:1:23: retry.max_attempts: expected an integer, found a sequence"
            ])
        #expect(result.leftOut([YAMLCodingKey("retry")]))
        #expect(result.leftOut([YAMLCodingKey("retry"), YAMLCodingKey("delays"), YAMLCodingKey(index: 0)]))
        #expect(!result.leftOut([YAMLCodingKey("amqp")]))
        #expect(!result.leftOut([]))
    }

    @Test func leftOutNamesTheFailedValueAndTheUnknownKey() throws {
        let result = try load("amqp: {url: x, prefetch: lots, queu: q}\n").decodeCollectingErrors(Config.self)
        #expect(result.leftOut([YAMLCodingKey("amqp"), YAMLCodingKey("prefetch")]))
        #expect(result.leftOut([YAMLCodingKey("amqp"), YAMLCodingKey("queu")]))
        #expect(!result.leftOut([YAMLCodingKey("amqp"), YAMLCodingKey("url")]))
        #expect(!result.leftOut([YAMLCodingKey("amqp")]))
    }

    @Test func aMissingRequiredKeyEndsDecodingWithTheErrorsFoundBefore() throws {
        #expect(
            try collectedErrors(Config.self, "retry: {max_attempts: lots}\namqp: {zzz: 1}\n") == [
                "config.yaml:1:23: retry.max_attempts: expected an integer, found 'lots'",
                "config.yaml:2:7: amqp: missing required key 'url'",
            ])
    }

    @Test func aMissingRequiredKeyIsNotRecoveredByAnOptionalAboveIt() throws {
        struct Loose: Decodable { var amqp: AMQP? }
        #expect(throws: YAMLDecodingErrors.self) {
            try load("amqp: {prefetch: 1}\n").decodeCollectingErrors(Loose.self)
        }
        #expect(
            try collectedErrors(Loose.self, "amqp: {ulr: x}\n") == [
                "config.yaml:1:8: amqp.ulr: unknown key 'ulr' (did you mean 'url'?)"
            ])
    }

    @Test func aCleanDocumentHasNoErrors() throws {
        let result = try load("amqp: {url: x, prefetch: 5}\n").decodeCollectingErrors(Config.self)
        #expect(result.errors.isEmpty)
        #expect(result.value.amqp.prefetch == 5)
    }

    @Test func errorsSortByLineThenColumnKeepingTheOrderOfEqualPositions() {
        func at(_ line: Int, _ column: Int, _ message: String) -> YAMLError {
            YAMLError(file: "f", line: line, column: column, message: message)
        }
        let sorted = [at(3, 1, "c"), at(1, 9, "b"), at(0, 0, "file"), at(1, 2, "a1"), at(1, 2, "a2")].sortedByPosition()
        #expect(sorted.map(\.message) == ["file", "a1", "a2", "b", "c"])
    }
}
