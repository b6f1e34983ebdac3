import Testing
@testable import HeraldCore

@Suite("JSON serialization")
struct JSONSerializationTests {
    @Test func outputIsCompactAndKeepsKeyOrder() {
        let value: JSONValue = ["z": 1, "a": [true, nil, 2.5, "x"], "m": ["n": .object([:]), "o": []]]
        #expect(value.jsonString == #"{"z":1,"a":[true,null,2.5,"x"],"m":{"n":{},"o":[]}}"#)
        #expect(value.serialized == Array(value.jsonString.utf8))
        #expect(value.description == value.jsonString)
    }

    @Test func writeAppendsToExistingBytes() {
        var output = Array("prefix:".utf8)
        JSONValue.string("v").write(into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"prefix:"v""#)
    }

    @Test func quotesBackslashesAndShortEscapesAreEscaped() {
        let value = JSONValue.string("\"\\/\u{08}\u{0C}\n\r\t")
        #expect(value.jsonString == #""\"\\/\b\f\n\r\t""#)
    }

    @Test func otherControlCharactersUseUnicodeEscapes() {
        let controls = String(decoding: [0x00, 0x01, 0x1B, 0x1F], as: UTF8.self)
        #expect(JSONValue.string(controls).jsonString == #""\u0000\u0001\u001b\u001f""#)
    }

    @Test func everyControlCharacterRoundTrips() throws {
        let all = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let text = JSONValue.string(all).jsonString
        #expect(!text.utf8.contains { $0 < 0x20 })
        #expect(try JSONValue.parse(text) == .string(all))
    }

    @Test func nonASCIIIsWrittenAsUTF8() {
        #expect(JSONValue.string("café ☕ 😀 \u{7F}").serialized == Array("\"café ☕ 😀 \u{7F}\"".utf8))
    }

    @Test func keysAreEscapedLikeStrings() {
        let value: JSONValue = ["a\"b\n": 1]
        #expect(value.jsonString == #"{"a\"b\n":1}"#)
    }

    @Test(arguments: [
        #"{"b":[1,-0,1.50,1E+2,-3e-7,123456789012345678901234567890],"a":{"é":"\n\u0001\"","":null},"c":[true,false,{}]}"#,
        #"[]"#,
        #""\ud83d\ude00 plain""#,
    ])
    func parsingThenSerializingGivesBackEquivalentText(text: String) throws {
        let value = try JSONValue.parse(text)
        let reparsed = try JSONValue.parse(value.serialized)
        #expect(reparsed == value)
        #expect(reparsed.jsonString == value.jsonString)
    }

    @Test func compactTextWithoutEscapesRoundTripsByteForByte() throws {
        let text = #"{"id":"evt-7f3a","n":[1,-0,1.50,1E+2,1e400],"u":"é€😀","o":{"z":null,"a":false}}"#
        #expect(try JSONValue.parse(text).jsonString == text)
    }

    @Test func buildingValuesFromSwiftValues() {
        #expect(JSONValue.number(JSONNumber(42)).jsonString == "42")
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        let literal: JSONValue = 1.5
        #expect(literal.jsonString == "1.5")
    }
}
