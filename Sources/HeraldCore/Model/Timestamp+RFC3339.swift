// RFC 3339 ("internet date/time") parsing and formatting, written out so the
// core needs neither Foundation nor a locale.

extension Timestamp {
    /// Parses an RFC 3339 date-time: `2026-11-30T10:00:00Z`,
    /// `2026-11-30T10:00:00.5+02:00`. `T` and `Z` may be lower case (RFC 3339
    /// §5.6); fractions of any length are accepted and cut to nanoseconds; a
    /// leap second (`:60`) counts as the next second. Anything else (a space
    /// for `T`, a missing offset, 31 November) gives `nil`.
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var nanoseconds: Int64 = 0
        if reader.skip(".") {
            var digits = 0
            while let digit = reader.digit() {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(digit) }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
        }

        var offsetSeconds: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else if let sign: Int64 = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil {
            guard let offsetHour = reader.number(digits: 2), reader.skip(":"),
                let offsetMinute = reader.number(digits: 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetSeconds = sign * Int64(offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }

        let days = Self.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day))
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(seconds: local - offsetSeconds, nanoseconds: nanoseconds)
    }

    /// Formats as RFC 3339 in UTC with `fractionDigits` (0...9) digits of
    /// fraction, truncated: `2026-11-30T10:00:01.234Z` for 3 (the default),
    /// `2026-11-30T10:00:01Z` for 0.
    public func rfc3339(fractionDigits: Int = 3) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)

        var out: [UInt8] = []
        out.reserveCapacity(32)
        if year < 0 { out.append(UInt8(ascii: "-")) }
        append(year.magnitude, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        append(UInt64(month), width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(UInt64(day), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(UInt64(secondOfDay / 3600), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(UInt64(secondOfDay % 3600 / 60), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(UInt64(secondOfDay % 60), width: 2, to: &out)
        let digits = min(max(fractionDigits, 0), 9)
        if digits > 0 {
            out.append(UInt8(ascii: "."))
            var divisor: UInt64 = 1
            for _ in digits..<9 { divisor *= 10 }
            append(UInt64(nanoseconds) / divisor, width: digits, to: &out)
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` in decimal, zero-padded to `width` digits, without
    /// allocating (every outcome's `at` is formatted with this).
    private func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var digits = 1
        var divisor: UInt64 = 1
        while value / divisor >= 10 {
            digits += 1
            divisor *= 10
        }
        for _ in digits..<max(width, digits) { out.append(UInt8(ascii: "0")) }
        var remaining = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }

    // MARK: Calendar arithmetic (proleptic Gregorian)

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date. Years are counted from March
    /// so the leap day falls at the end of each (shifted) year, and grouped
    /// in 400-year cycles of 146 097 days.
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let cycle = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfCycle = shiftedYear - cycle * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        return cycle * 146_097 + dayOfCycle - 719_468  // 719 468: days from 0000-03-01 to 1970-01-01
    }

    /// The inverse of ``daysSinceEpoch(year:month:day:)``.
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days.addingReportingOverflow(719_468).partialValue
        let cycle = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfCycle = shifted - cycle * 146_097
        let yearOfCycle = (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36_524 - dayOfCycle / 146_096) / 365
        let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfCycle + cycle * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

/// Reads fixed-width ASCII digits and separators for the RFC 3339 parser.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func digit() -> Int? {
        guard position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") else {
            return nil
        }
        defer { position += 1 }
        return Int(bytes[position] - UInt8(ascii: "0"))
    }

    mutating func number(digits count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }
}
