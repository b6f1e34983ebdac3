import Testing
@testable import HeraldCore

@Suite("JSON numbers")
struct JSONNumberTests {
    @Test(
        arguments: [
            ("0", 0), ("-0", 0), ("3600", 3600), ("-42", -42), ("3600.0", 3600), ("3.6e3", 3600), ("36e2", 3600),
            ("100e-2", 1), ("0e99999", 0), ("0.000e5", 0), ("1e18", 1_000_000_000_000_000_000),
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("-9.223372036854775808e18", Int.min),
        ] as [(String, Int)])
    func integralValuesReadAsInt(text: String, expected: Int) throws {
        #expect(try #require(JSONNumber(text)).int == expected)
    }

    @Test(arguments: [
        "1.5", "1e-1", "1e19", "9223372036854775808", "-9223372036854775809", "1.0000000000000001", "1e400",
        "12345678901234567890123",
    ])
    func nonIntegralOrOutOfRangeValuesHaveNoInt(text: String) throws {
        #expect(try #require(JSONNumber(text)).int == nil)
    }

    @Test func doublesAreReadWhenFinite() throws {
        #expect(try #require(JSONNumber("12.4")).double == 12.4)
        #expect(try #require(JSONNumber("-1e-3")).double == -0.001)
        #expect(try #require(JSONNumber("1e400")).double == nil)
    }

    @Test(arguments: ["", " 1", "1 ", "01", "+1", ".5", "1.", "NaN", "0x1", "1e", "\"1\"", "[1]"])
    func textThatIsNotANumberIsRefused(text: String) {
        #expect(JSONNumber(text) == nil)
    }

    @Test func equalityIsTextual() throws {
        #expect(try #require(JSONNumber("1")) != #require(JSONNumber("1.0")))
        #expect(try #require(JSONNumber("1")).double == #require(JSONNumber("1.0")).double)
    }
}
