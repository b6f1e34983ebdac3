import Testing
@testable import HeraldCore

@Suite("JSON parsing: accepted documents")
struct JSONParsingTests {
    @Test func scalarsAtTheTopLevelParse() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse("\"hi\"") == .string("hi"))
        #expect(try JSONValue.parse("-12.5e3").numberValue?.text == "-12.5e3")
    }

    @Test func objectsKeepTheirMemberOrder() throws {
        let value = try JSONValue.parse(#"{"b":1,"a":[true,null,{"c":"d"}],"0":{}}"#)
        #expect(value.objectValue?.keys == ["b", "a", "0"])
        #expect(value["a"]?[2]?["c"]?.stringValue == "d")
        #expect(value["a"]?[1] == .null)
        #expect(value["a"]?[3] == nil)
        #expect(value["0"] == .object([:]))
    }

    @Test func whitespaceIsAllowedAroundEveryToken() throws {
        let value = try JSONValue.parse(" \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } }\n")
        #expect(value == ["a": [1, 2], "b": .object([:])])
    }

    @Test func everyShortEscapeDecodes() throws {
        let value = try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test(arguments: [
        (#""\u00e9""#, "é"),
        (#""\u00E9""#, "é"),
        (#""\u20AC""#, "€"),
        (#""\u0000""#, "\u{0}"),
        (#""\u001f""#, "\u{1F}"),
        (#""\uFFFF""#, "\u{FFFF}"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\udbff\udfff""#, "\u{10FFFF}"),
        (#""a\u0041b\nc""#, "aAb\nc"),
    ])
    func unicodeEscapesDecode(text: String, expected: String) throws {
        #expect(try JSONValue.parse(text) == .string(expected))
    }

    @Test func rawUTF8StringsAreKeptAsIs() throws {
        #expect(try JSONValue.parse("\"café ☕ 😀 \u{7F}\"") == .string("café ☕ 😀 \u{7F}"))
        #expect(try JSONValue.parse("\"é\\n€\"") == .string("é\n€"))
    }

    @Test func keysMayNeedEscapes() throws {
        let value = try JSONValue.parse(#"{"a\"b":1,"\u00e9":2}"#)
        #expect(value.objectValue?.keys == ["a\"b", "é"])
    }

    @Test(arguments: [
        "0", "-0", "12", "-12", "0.5", "-0.5", "1e10", "1E+2", "1e-2", "12.50", "123456789012345678901234567890",
    ])
    func validNumbersKeepTheirText(text: String) throws {
        #expect(try JSONValue.parse(text).numberValue?.text == text)
    }

    @Test func aHugeNumberParsesButHasNoDouble() throws {
        let value = try JSONValue.parse("[1e400, -1e400]")
        #expect(value[0]?.numberValue?.text == "1e400")
        #expect(value[0]?.doubleValue == nil)
        #expect(value.jsonString == "[1e400,-1e400]")
    }

    @Test func sixtyFourLevelsOfNestingAreAllowedByDefault() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(parseError(text) == nil)
    }

    @Test func aLargeObjectWithUniqueKeysParses() throws {
        let members = (0..<5000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let value = try JSONValue.parse("{\(members)}")
        #expect(value.objectValue?.count == 5000)
        #expect(value["k4321"]?.intValue == 4321)
    }

    @Test func allThreeEntryPointsAgree() throws {
        let text = #"{"a":[1,"é",{"b":null}]}"#
        let bytes = Array(text.utf8)
        let fromString = try JSONValue.parse(text)
        let fromArray = try JSONValue.parse(bytes)
        let fromRaw = try bytes.withUnsafeBytes { raw in try JSONValue.parse(raw) }
        #expect(fromString == fromArray)
        #expect(fromArray == fromRaw)
    }
}
