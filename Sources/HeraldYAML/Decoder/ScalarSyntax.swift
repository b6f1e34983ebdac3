/// The outcome of reading a number from a scalar's text.
enum ParsedNumber<T> {
    case value(T)
    case invalid
    case outOfRange
}

/// Herald's scalar syntax for numbers and booleans (YAML 1.2 core schema,
/// plus `_` digit separators): pure functions, no positions.
enum ScalarSyntax {
    /// Decimal, `0x` hex or `0o` octal, optional sign, `_` between digits.
    static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type = T.self) -> ParsedNumber<T> {
        var body = Substring(text)
        let negative = body.first == "-"
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        var radix = 10
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.hasPrefix("0o") || body.hasPrefix("0O") {
            radix = 8
            body = body.dropFirst(2)
        }
        guard body.first != "_", body.last != "_" else { return .invalid }
        var digits: [T] = []
        for character in body where character != "_" {
            guard character.isASCII, let digit = character.hexDigitValue, digit < radix else { return .invalid }
            digits.append(T(digit))
        }
        guard !digits.isEmpty else { return .invalid }
        var value: T = 0
        for digit in digits {
            let shifted = value.multipliedReportingOverflow(by: T(radix))
            let next =
                negative
                ? shifted.partialValue.subtractingReportingOverflow(digit)
                : shifted.partialValue.addingReportingOverflow(digit)
            if shifted.overflow || next.overflow { return .outOfRange }
            value = next.partialValue
        }
        return .value(value)
    }

    /// Decimal or exponent notation with `_` separators, or `.inf`, `-.inf`, `.nan`.
    static func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ text: String, as type: T.Type = T.self)
        -> ParsedNumber<T>
    {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .value(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .value(-.infinity)
        case ".nan", ".NaN", ".NAN": return .value(.nan)
        default: break
        }
        let cleaned = text.filter { $0 != "_" }
        let allowed = cleaned.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
        guard allowed, cleaned.contains(where: \.isNumber), let value = T(cleaned) else { return .invalid }
        return value.isInfinite ? .outOfRange : .value(value)
    }

    /// `true`/`false` in any case; nil otherwise.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// YAML 1.1 spellings that other tools read as booleans; rejected with a hint.
    static func isYAML11Boolean(_ text: String) -> Bool {
        ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased())
    }
}
