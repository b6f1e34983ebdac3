import Testing
@testable import HeraldCore

@Suite("Timestamps and RFC 3339")
struct TimestampTests {
    @Test func wholeSecondsInUTCParse() throws {
        let timestamp = try #require(Timestamp(rfc3339: "2026-11-30T10:00:00Z"))
        #expect(timestamp == novemberThirtieth)
        #expect(timestamp.nanoseconds == 0)
    }

    @Test(
        arguments: [
            ("2026-11-30T10:00:01.234Z", 1_796_032_801, 234_000_000),
            ("2026-11-30T10:00:01.5Z", 1_796_032_801, 500_000_000),
            ("2026-11-30T10:00:01.123456789Z", 1_796_032_801, 123_456_789),
            ("2026-11-30T10:00:01.1234567891234Z", 1_796_032_801, 123_456_789),
        ] as [(String, Int64, Int32)])
    func fractionalSecondsParse(text: String, seconds: Int64, nanoseconds: Int32) throws {
        let timestamp = try #require(Timestamp(rfc3339: text))
        #expect(timestamp.seconds == seconds)
        #expect(timestamp.nanoseconds == nanoseconds)
    }

    @Test(arguments: [
        "2026-11-30T12:00:00+02:00",
        "2026-11-30T04:30:00-05:30",
        "2026-11-30t10:00:00z",
        "2026-11-30T10:00:00-00:00",
        "2026-12-01T00:00:00+14:00",
    ])
    func offsetsAreConvertedToUTC(text: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: text))
        #expect(timestamp == novemberThirtieth)
    }

    @Test(arguments: [
        "", "2026-11-30", "2026-11-30T10:00:00", "2026-11-30 10:00:00Z", "2026-11-31T10:00:00Z",
        "2026-02-29T10:00:00Z", "2026-13-01T10:00:00Z", "2026-00-10T10:00:00Z", "2026-11-30T24:00:00Z",
        "2026-11-30T10:60:00Z", "2026-11-30T10:00:61Z", "2026-11-30T10:00:00.Z", "2026-11-30T10:00:00+2:00",
        "2026-11-30T10:00:00+02:60", "2026-11-30T10:00:00+0200", "26-11-30T10:00:00Z", "2026-11-30T10:00:00Z ",
        "2026-11-30T10:00:00ZZ", "tomorrow",
    ])
    func malformedTimesAreRefused(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test func leapDaysAndLeapSecondsAreAccepted() throws {
        #expect(Timestamp(rfc3339: "2028-02-29T00:00:00Z") != nil)
        #expect(Timestamp(rfc3339: "2000-02-29T00:00:00Z") != nil)
        #expect(Timestamp(rfc3339: "1900-02-29T00:00:00Z") == nil)
        #expect(Timestamp(rfc3339: "2016-12-31T23:59:60Z") == Timestamp(rfc3339: "2017-01-01T00:00:00Z"))
    }

    @Test func formattingUsesMillisecondsAndZ() {
        #expect(Timestamp(seconds: 1_796_032_801, nanoseconds: 234_567_890).rfc3339() == "2026-11-30T10:00:01.234Z")
        #expect(novemberThirtieth.rfc3339() == "2026-11-30T10:00:00.000Z")
        #expect(novemberThirtieth.rfc3339(fractionDigits: 0) == "2026-11-30T10:00:00Z")
        #expect(Timestamp(seconds: 0, nanoseconds: 5).rfc3339(fractionDigits: 9) == "1970-01-01T00:00:00.000000005Z")
        #expect(Timestamp(seconds: -1, nanoseconds: 999_000_000).description == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(seconds: 253_402_300_799).rfc3339(fractionDigits: 0) == "9999-12-31T23:59:59Z")
    }

    @Test func fieldsArePaddedToTheirWidthAndYearsMayGrowPastIt() throws {
        #expect(Timestamp(seconds: 253_402_300_800).rfc3339(fractionDigits: 0) == "10000-01-01T00:00:00Z")
        let early = try #require(Timestamp(rfc3339: "0099-03-01T05:06:07.080Z"))
        #expect(early.rfc3339() == "0099-03-01T05:06:07.080Z")
        #expect(early.rfc3339(fractionDigits: 1) == "0099-03-01T05:06:07.0Z")
        #expect(
            Timestamp(seconds: 1_796_032_801, nanoseconds: 7).rfc3339(fractionDigits: 9)
                == "2026-11-30T10:00:01.000000007Z")
    }

    @Test func formattingAndParsingRoundTrip() throws {
        var seconds: Int64 = -62_135_596_800  // 0001-01-01
        while seconds < 253_402_300_799 {
            let timestamp = Timestamp(seconds: seconds, nanoseconds: 123_000_000)
            #expect(Timestamp(rfc3339: timestamp.rfc3339()) == timestamp)
            seconds += 86_400 * 97 + 3_607
        }
    }

    @Test func millisecondsAndArithmetic() {
        let timestamp = Timestamp(millisecondsSinceEpoch: 1_796_032_801_234)
        #expect(timestamp.rfc3339() == "2026-11-30T10:00:01.234Z")
        #expect(timestamp.millisecondsSinceEpoch == 1_796_032_801_234)
        #expect(Timestamp(millisecondsSinceEpoch: -1).rfc3339() == "1969-12-31T23:59:59.999Z")
        #expect((novemberThirtieth + .milliseconds(1500)).rfc3339() == "2026-11-30T10:00:01.500Z")
        #expect((novemberThirtieth + .milliseconds(-1)).rfc3339() == "2026-11-30T09:59:59.999Z")
        #expect(timestamp - novemberThirtieth == .milliseconds(1234))
        #expect(novemberThirtieth < timestamp)
    }

    @Test func nanosecondsCarryIntoSeconds() {
        #expect(Timestamp(seconds: 10, nanoseconds: -1) == Timestamp(seconds: 9, nanoseconds: 999_999_999))
        #expect(Timestamp(seconds: 10, nanoseconds: 2_500_000_000) == Timestamp(seconds: 12, nanoseconds: 500_000_000))
        #expect(Timestamp(seconds: 0, nanoseconds: .min).nanoseconds >= 0)
        #expect(Timestamp(seconds: .max, nanoseconds: .max).seconds == .max)
    }

    @Test func arithmeticSaturatesInsteadOfTrapping() {
        let late = Timestamp(seconds: .max) + .seconds(Int64.max)
        #expect(late.seconds == .max)
        #expect(Timestamp(seconds: .min) + .seconds(-10) == Timestamp(seconds: .min))
        #expect(!late.rfc3339().isEmpty)
    }

    /// Every Int64 is a valid millisecond count: the extremes (a forged header,
    /// an APNs 410 body) once trapped in the conversion.
    @Test(arguments: [Int64.min, Int64.min + 1, -1001, -1000, -999, -1, 0, 999, Int64.max])
    func everyMillisecondCountConverts(_ milliseconds: Int64) {
        let timestamp = Timestamp(millisecondsSinceEpoch: milliseconds)
        #expect(timestamp.nanoseconds >= 0 && timestamp.nanoseconds < 1_000_000_000)
        #expect(timestamp.nanoseconds % 1_000_000 == 0)
        #expect(timestamp.millisecondsSinceEpoch == milliseconds)
        #expect(!timestamp.rfc3339().isEmpty)
    }
}
