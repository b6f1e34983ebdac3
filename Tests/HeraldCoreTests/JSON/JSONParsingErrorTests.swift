import Testing
@testable import HeraldCore

@Suite("JSON parsing: refused documents and their messages")
struct JSONParsingErrorTests {
    @Test(arguments: [
        ("", "unexpected end of input at byte 0 (line 1, column 1): expected a value"),
        ("  \n ", "unexpected end of input at byte 4 (line 2, column 2): expected a value"),
        ("x", "unexpected 'x' at byte 0 (line 1, column 1): expected a value"),
        ("[1,x]", "unexpected 'x' at byte 3 (line 1, column 4): expected a value"),
        ("[1 2]", "unexpected '2' at byte 3 (line 1, column 4): expected ',' or ']'"),
        ("[1,2", "unexpected end of input at byte 4 (line 1, column 5): expected ',' or ']'"),
        (#"{"a" 1}"#, "unexpected '1' at byte 5 (line 1, column 6): expected ':'"),
        (#"{"a":}"#, "unexpected '}' at byte 5 (line 1, column 6): expected a value"),
        (#"{"a":1"#, "unexpected end of input at byte 6 (line 1, column 7): expected ',' or '}'"),
        ("{1:2}", "unexpected '1' at byte 1 (line 1, column 2): expected a string key or '}'"),
        ("{'a':1}", "unexpected ''' at byte 1 (line 1, column 2): expected a string key or '}'"),
        (#"{"a":1,2}"#, "unexpected '2' at byte 7 (line 1, column 8): expected a string key"),
        ("[1,2,]", "unexpected ']' at byte 5 (line 1, column 6): trailing commas are not allowed"),
        (#"{"a":1,}"#, "unexpected '}' at byte 7 (line 1, column 8): trailing commas are not allowed"),
        ("[1,}", "unexpected '}' at byte 3 (line 1, column 4): expected a value"),
        (#"{"a":1 /* no */}"#, "unexpected '/' at byte 7 (line 1, column 8): expected ',' or '}'"),
        ("// comment\n1", "unexpected '/' at byte 0 (line 1, column 1): expected a value"),
        ("tru", "invalid literal at byte 0 (line 1, column 1): expected true"),
        ("nul", "invalid literal at byte 0 (line 1, column 1): expected null"),
        ("[fals]", "invalid literal at byte 1 (line 1, column 2): expected false"),
        ("True", "unexpected 'T' at byte 0 (line 1, column 1): expected a value"),
        ("\u{0C}1", "unexpected U+000C at byte 0 (line 1, column 1): expected a value"),
        ("\u{A0}1", "unexpected U+00A0 at byte 0 (line 1, column 1): expected a value"),
        ("\u{FEFF}{}", "unexpected U+FEFF at byte 0 (line 1, column 1): expected a value"),
    ])
    func malformedStructureIsReportedWithPosition(text: String, message: String) {
        #expect(parseError(text) == message)
    }

    @Test(arguments: [
        ("01", "invalid number at byte 0 (line 1, column 1): leading zeros are not allowed"),
        ("-01", "invalid number at byte 0 (line 1, column 1): leading zeros are not allowed"),
        ("[00]", "invalid number at byte 1 (line 1, column 2): leading zeros are not allowed"),
        ("-", "invalid number at byte 0 (line 1, column 1): expected a digit after '-'"),
        ("-a", "invalid number at byte 0 (line 1, column 1): expected a digit after '-'"),
        ("-Infinity", "invalid number at byte 0 (line 1, column 1): expected a digit after '-'"),
        ("1.", "invalid number at byte 0 (line 1, column 1): expected a digit after '.'"),
        ("1.e5", "invalid number at byte 0 (line 1, column 1): expected a digit after '.'"),
        ("1e", "invalid number at byte 0 (line 1, column 1): expected a digit in the exponent"),
        ("[1e+]", "invalid number at byte 1 (line 1, column 2): expected a digit in the exponent"),
        (".5", "unexpected '.' at byte 0 (line 1, column 1): expected a value"),
        ("+1", "unexpected '+' at byte 0 (line 1, column 1): expected a value"),
        ("NaN", "unexpected 'N' at byte 0 (line 1, column 1): expected a value"),
        ("Infinity", "unexpected 'I' at byte 0 (line 1, column 1): expected a value"),
        ("0x10", "unexpected data after the JSON value at byte 1 (line 1, column 2)"),
    ])
    func malformedNumbersAreRefused(text: String, message: String) {
        #expect(parseError(text) == message)
    }

    @Test(arguments: [
        (#""\x""#, "invalid escape '\\x' at byte 1 (line 1, column 2)"),
        (#""\u12G4""#, "invalid escape '\\u12G4' at byte 1 (line 1, column 2): expected 4 hex digits after \\u"),
        (#""\u12""#, "invalid escape '\\u12\"' at byte 1 (line 1, column 2): expected 4 hex digits after \\u"),
        (#""\U0041""#, "invalid escape '\\U' at byte 1 (line 1, column 2)"),
        ("\"\\", "unterminated string starting at byte 0 (line 1, column 1)"),
    ])
    func invalidEscapesAreRefused(text: String, message: String) {
        #expect(parseError(text) == message)
    }

    @Test(arguments: [
        (#""\uD800""#, "lone surrogate '\\uD800' at byte 1"),
        (#""\uDBFFx""#, "lone surrogate '\\uDBFF' at byte 1"),
        (#""ab\uDC00""#, "lone surrogate '\\uDC00' at byte 3"),
        (#""\uD800\u0041""#, "lone surrogate '\\uD800' at byte 1"),
        (#""\uD800\uD800""#, "lone surrogate '\\uD800' at byte 1"),
        (#""\uDE00\uD83D""#, "lone surrogate '\\uDE00' at byte 1"),
    ])
    func loneSurrogatesAreRefused(text: String, prefix: String) throws {
        let message = try #require(parseError(text))
        #expect(message.hasPrefix(prefix))
        #expect(message.hasSuffix(": a surrogate must be half of a \\uD800-\\uDBFF\\uDC00-\\uDFFF pair"))
    }

    @Test func aSurrogatePairWithABrokenSecondHalfNamesTheSecondEscape() {
        #expect(
            parseError(#""\uD83D\uZZZZ""#)
                == "invalid escape '\\uZZZZ' at byte 7 (line 1, column 8): expected 4 hex digits after \\u")
    }

    @Test func rawControlCharactersInStringsAreRefused() {
        #expect(parseError("\"a\nb\"") == "unescaped control character U+000A in a string at byte 2 (line 1, column 3)")
        #expect(parseError("\"\t\"") == "unescaped control character U+0009 in a string at byte 1 (line 1, column 2)")
        #expect(
            parseError("\"a\\n\u{0}\"") == "unescaped control character U+0000 in a string at byte 4 (line 1, column 5)"
        )
    }

    @Test func anUnterminatedStringNamesWhereItStarts() {
        #expect(parseError(#"{"a": "abc"#) == "unterminated string starting at byte 6 (line 1, column 7)")
        #expect(parseError(#"["a\"]"#) == "unterminated string starting at byte 1 (line 1, column 2)")
    }

    @Test func duplicateKeysAreRefused() {
        #expect(parseError(#"{"id":1,"x":2,"id":3}"#) == #"duplicate key "id" at byte 14 (line 1, column 15)"#)
        #expect(
            parseError("{\n  \"a\": 1,\n  \"id\": 2,\n    \"id\": 3}")
                == #"duplicate key "id" at byte 27 (line 4, column 5)"#)
        #expect(parseError(#"{"a":{"b":1,"b":1}}"#) == #"duplicate key "b" at byte 12 (line 1, column 13)"#)
    }

    @Test func keysThatDifferOnlyByEscapingAreDuplicates() {
        #expect(parseError(#"{"A":1,"\u0041":2}"#) == #"duplicate key "A" at byte 7 (line 1, column 8)"#)
    }

    @Test func duplicateKeysAreFoundInLargeObjectsToo() {
        let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseError("{\(members),\"k7\":0}")?.hasPrefix(#"duplicate key "k7" at byte"#) == true)
    }

    @Test(arguments: 1...30)
    func duplicatesAreFoundAtEverySizeAroundTheIndexThreshold(size: Int) {
        let members = (0..<size).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseError("{\(members)}") == nil)
        for duplicate in ["k0", "k\(size - 1)", "k\(size / 2)"] {
            let message = parseError("{\(members),\"x\":[{\"k0\":1}],\"\(duplicate)\":0}")
            #expect(message?.hasPrefix("duplicate key \"\(duplicate)\" at byte") == true)
        }
    }

    @Test func theSameKeyInDifferentObjectsIsFine() {
        #expect(parseError(#"[{"id":1},{"id":2}]"#) == nil)
    }

    @Test(arguments: [
        (#"{"a":1} x"#, "unexpected data after the JSON value at byte 8 (line 1, column 9)"),
        ("[1] [2]", "unexpected data after the JSON value at byte 4 (line 1, column 5)"),
        ("truex", "unexpected data after the JSON value at byte 4 (line 1, column 5)"),
        ("1\n\n2", "unexpected data after the JSON value at byte 3 (line 3, column 1)"),
        ("\"a\"\u{0}", "unexpected data after the JSON value at byte 3 (line 1, column 4)"),
    ])
    func dataAfterTheValueIsRefused(text: String, message: String) {
        #expect(parseError(text) == message)
    }

    @Test func nestingBeyondTheLimitIsRefused() {
        let text = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseError(text) == "nesting deeper than 64 levels at byte 64 (line 1, column 65)")
        let objects = String(repeating: #"{"a":"#, count: 3) + "1}}}"
        #expect(
            parseError(objects, limits: JSONLimits(maxDepth: 2, maxBytes: 100))
                == "nesting deeper than 2 levels at byte 10 (line 1, column 11)")
    }

    @Test func aHundredThousandOpenBracketsAreAnErrorNotACrash() {
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(parseError(arrays) == "nesting deeper than 64 levels at byte 64 (line 1, column 65)")
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(
            parseError(objects, limits: JSONLimits(maxDepth: 64, maxBytes: 1 << 30))?.hasPrefix(
                "nesting deeper than 64 levels") == true)
    }

    @Test func aHugeDepthLimitIsLoweredToTheCeiling() {
        let limits = JSONLimits(maxDepth: 10_000_000, maxBytes: 1 << 20)
        #expect(limits.maxDepth == JSONLimits.maxDepthCeiling)
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            parseError(text, limits: limits) == "nesting deeper than 1000 levels at byte 1000 (line 1, column 1001)")
    }

    @Test func oversizedInputIsRefusedBeforeParsing() throws {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024)
        #expect(parseError(body) == "JSON body is 10485760 bytes, over the limit of 1048576")
        do {
            _ = try JSONValue.parse(body)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .tooLarge(size: 10_485_760, limit: 1_048_576))
            #expect(error.position == nil)
        }
    }

    @Test func errorsExposeOffsetLineAndColumn() throws {
        do {
            _ = try JSONValue.parse("{\n  \"a\": tru\n}")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidLiteral(expected: "true"))
            #expect(error.position == JSONError.Position(offset: 9, line: 2, column: 8))
            #expect(error.offset == 9)
        }
    }
}
