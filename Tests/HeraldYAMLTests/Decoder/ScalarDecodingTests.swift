import Testing
import HeraldYAML

@Suite struct ScalarDecodingTests {
    struct Flag: Decodable { var enabled: Bool }
    struct Number<T: Decodable>: Decodable { var value: T }
    struct Text: Decodable { var value: String }
    struct Maybe: Decodable { var value: Int? }

    @Test(arguments: ["true", "True", "TRUE", "'true'"])
    func trueSpellingsDecodeAsTrue(_ text: String) throws {
        #expect(try decode(Flag.self, "enabled: \(text)").enabled == true)
    }

    @Test func falseDecodesAsFalse() throws {
        #expect(try decode(Flag.self, "enabled: false").enabled == false)
    }

    @Test(arguments: ["yes", "no", "on", "Off"])
    func yamlOneOneBooleansAreRejectedWithAHint(_ text: String) {
        #expect(
            errorText(Flag.self, "enabled: \(text)")
                == "config.yaml:1:10: enabled: expected a boolean, found '\(text)' (write true or false; yes/no/on/off are not booleans here)"
        )
    }

    @Test func otherWordsAreNotBooleans() {
        #expect(
            errorText(Flag.self, "enabled: maybe")
                == "config.yaml:1:10: enabled: expected a boolean (true or false), found 'maybe'")
    }

    @Test func integersAcceptSignsHexOctalAndSeparators() throws {
        #expect(try decode(Number<Int>.self, "value: 1_000_000").value == 1_000_000)
        #expect(try decode(Number<Int>.self, "value: -42").value == -42)
        #expect(try decode(Number<Int>.self, "value: +7").value == 7)
        #expect(try decode(Number<Int>.self, "value: 0x1F").value == 31)
        #expect(try decode(Number<Int>.self, "value: 0o755").value == 493)
        #expect(try decode(Number<Int8>.self, "value: -128").value == -128)
        #expect(try decode(Number<UInt64>.self, "value: 18446744073709551615").value == .max)
        #expect(try decode(Number<Int64>.self, "value: -0x8000_0000_0000_0000").value == .min)
        #expect(try decode(Number<Int>.self, "value: \"12\"").value == 12)
    }

    @Test func integerOverflowIsAnError() {
        #expect(
            errorText(Number<UInt8>.self, "value: 256")
                == "config.yaml:1:8: value: expected an integer in 0...255, found '256' (out of range)")
        #expect(
            errorText(Number<Int8>.self, "value: -129")
                == "config.yaml:1:8: value: expected an integer in -128...127, found '-129' (out of range)")
        #expect(
            errorText(Number<UInt32>.self, "value: -1")
                == "config.yaml:1:8: value: expected an integer in 0...4294967295, found '-1' (out of range)")
        #expect(
            errorText(Number<Int>.self, "value: 9223372036854775808")
                == "config.yaml:1:8: value: expected an integer in -9223372036854775808...9223372036854775807, found '9223372036854775808' (out of range)"
        )
    }

    @Test func malformedIntegersAreErrors() {
        #expect(errorText(Number<Int>.self, "value: abc") == "config.yaml:1:8: value: expected an integer, found 'abc'")
        #expect(errorText(Number<Int>.self, "value: 1.5") == "config.yaml:1:8: value: expected an integer, found '1.5'")
        #expect(errorText(Number<Int>.self, "value: _1") == "config.yaml:1:8: value: expected an integer, found '_1'")
        #expect(errorText(Number<Int>.self, "value: 0o9") == "config.yaml:1:8: value: expected an integer, found '0o9'")
        #expect(
            errorText(Number<Int>.self, "value:") == "config.yaml:1:7: value: expected an integer, found an empty value"
        )
    }

    @Test func floatsAcceptDecimalsExponentsInfinityAndNaN() throws {
        #expect(try decode(Number<Double>.self, "value: 1_000.5").value == 1000.5)
        #expect(try decode(Number<Double>.self, "value: -2.5e3").value == -2500)
        #expect(try decode(Number<Double>.self, "value: 3").value == 3)
        #expect(try decode(Number<Double>.self, "value: .inf").value == .infinity)
        #expect(try decode(Number<Double>.self, "value: -.Inf").value == -.infinity)
        #expect(try decode(Number<Float>.self, "value: .NaN").value.isNaN)
        #expect(try decode(Number<Float>.self, "value: 0.25").value == 0.25)
    }

    @Test func malformedOrHugeFloatsAreErrors() {
        #expect(
            errorText(Number<Double>.self, "value: fast") == "config.yaml:1:8: value: expected a number, found 'fast'")
        #expect(
            errorText(Number<Double>.self, "value: inf") == "config.yaml:1:8: value: expected a number, found 'inf'")
        #expect(
            errorText(Number<Float>.self, "value: 1e39")
                == "config.yaml:1:8: value: expected a number within the range of Float, found '1e39' (out of range)")
    }

    @Test func stringsTakeAnyScalarAsWritten() throws {
        #expect(try decode(Text.self, "value: 0x10").value == "0x10")
        #expect(try decode(Text.self, "value: true").value == "true")
        #expect(try decode(Text.self, "value: ~").value == "~")
        #expect(try decode(Text.self, "value: 'null'").value == "null")
    }

    @Test func collectionWhereAScalarIsExpectedIsATypeError() {
        #expect(errorText(Text.self, "value: [a]") == "config.yaml:1:8: value: expected a string, found a sequence")
        #expect(
            errorText(Number<Int>.self, "value: {a: 1}")
                == "config.yaml:1:8: value: expected an integer, found a mapping")
    }

    @Test(arguments: ["value: ~", "value: null", "value: Null", "value: NULL", "value:", "{}"])
    func nullSpellingsAndMissingKeysDecodeAsNil(_ text: String) throws {
        #expect(try decode(Maybe.self, text).value == nil)
    }

    @Test func quotedNullIsNotNull() {
        #expect(errorText(Maybe.self, "value: 'null'") == "config.yaml:1:8: value: expected an integer, found 'null'")
    }

    @Test func oneHundredTwentyEightBitIntegersDecode() throws {
        struct Wide: Decodable { var a: Int128; var b: UInt128 }
        let wide = try decode(
            Wide.self, "a: -170141183460469231731687303715884105728\nb: 0xffff_ffff_ffff_ffff_ffff_ffff_ffff_ffff")
        #expect(wide.a == .min)
        #expect(wide.b == .max)
    }

    @Test func sequencesOfScalarsAreTypeChecked() {
        #expect(errorText([Int].self, "[1, {a: 1}]") == "config.yaml:1:5: [1]: expected an integer, found a mapping")
    }
}
