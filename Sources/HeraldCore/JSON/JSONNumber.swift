/// A JSON number kept as its literal text.
///
/// Herald relays numbers it does not interpret (custom `data`, raw `apns`
/// payloads): keeping the text means `12345678901234567890` or `0.1`
/// re-encode exactly as the sender wrote them, with no detour through
/// `Double`. Typed readers ask for ``int`` or ``double``.
///
/// Equality is textual: `1`, `1.0` and `1e0` are different values. Compare
/// ``double`` or ``int`` for numeric equality.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, valid per RFC 8259 (`-12.5e3`).
    public let text: String

    /// Wraps text the parser has already checked against the grammar.
    init(uncheckedText text: String) {
        self.text = text
    }

    /// A number from its literal text; `nil` when `text` is not a JSON
    /// number (`01`, `+1`, `.5`, `NaN`, surrounding spaces, ...).
    public init?(_ text: String) {
        guard case .number(let number)? = try? JSONValue.parse(text), number.text.utf8.count == text.utf8.count else {
            return nil
        }
        self = number
    }

    /// The exact decimal form of `value`.
    public init(_ value: Int) {
        text = String(value)
    }

    /// The shortest text that reads back as `value`; `nil` for infinities and
    /// NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(finite: value)
    }

    /// For values known to be finite (float literals); anything else becomes `0`.
    init(finite value: Double) {
        text = value.isFinite ? value.description : "0"
    }

    public var description: String { text }

    /// `true` when the literal has no fraction and no exponent (`42`, `-7`).
    public var isIntegerLiteral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as an `Int` when it is exactly an integer that fits:
    /// `3600`, `3600.0` and `3.6e3` give 3600; `1.5`, `1e30` give `nil`.
    public var int: Int? {
        if isIntegerLiteral { return Int(text) }
        return Self.exactInteger(Array(text.utf8))
    }

    /// The value as the nearest `Double`; `nil` when it is out of `Double`'s
    /// range (`1e400`), since an infinity is not a JSON number.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

extension JSONNumber {
    /// The integer a literal with a fraction or exponent denotes, if it is
    /// one and fits in `Int`: digits are shifted by the exponent in decimal,
    /// so no binary rounding can turn `1.0000000000000001` into `1`.
    private static func exactInteger(_ literal: [UInt8]) -> Int? {
        var index = 0
        let negative = literal.first == UInt8(ascii: "-")
        if negative { index += 1 }

        var digits: [UInt8] = []
        var fractionDigits = 0
        var inFraction = false
        while index < literal.count {
            let byte = literal[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                digits.append(byte &- UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }

        var exponent = 0
        if index < literal.count {
            index += 1  // e
            var exponentNegative = false
            if index < literal.count, literal[index] == UInt8(ascii: "-") || literal[index] == UInt8(ascii: "+") {
                exponentNegative = literal[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < literal.count {
                // Saturate: anything beyond a million digits is far outside Int anyway.
                exponent = min(exponent * 10 + Int(literal[index] &- UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        // Drop leading zeros; an all-zero mantissa is 0 whatever the exponent.
        guard let firstNonZero = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
        digits.removeFirst(firstNonZero)
        var scale = exponent - fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            scale += 1
        }
        guard scale >= 0, digits.count + scale <= 19 else { return nil }

        var magnitude: UInt64 = 0
        for digit in digits + [UInt8](repeating: 0, count: scale) {
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            if magnitude == UInt64(Int.max) + 1 { return Int.min }
            guard magnitude <= UInt64(Int.max) else { return nil }
            return -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }
}
