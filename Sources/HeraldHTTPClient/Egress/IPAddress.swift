/// An IP address as its bytes: what the egress policy classifies, whether it
/// came from a URL's host (`IPAddress(host:)`) or from the socket address
/// libcurl is about to connect to.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address, the first byte in the most significant bits.
    case v4(UInt32)
    /// An IPv6 address, the first byte in the most significant bits.
    case v6(UInt128)

    /// The address from its network-order bytes: 4 for IPv4, 16 for IPv6; nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4: self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16: self = .v6(bytes.reduce(0) { $0 << 8 | UInt128($1) })
        default: return nil
        }
    }

    /// The address a URL's host names when it is an IP literal: IPv4 in
    /// every form `inet_aton` and libcurl read (`127.1`, `2130706433`,
    /// `0x7f.1`, `0177.0.0.1`; `IPv4Literal`), IPv6 in brackets or bare,
    /// with a zone (`%25eth0` or `%eth0`) ignored. Nil for a host name.
    public init?(host: some StringProtocol) {
        var text = Substring(host).utf8[...]
        if text.first == UInt8(ascii: "["), text.last == UInt8(ascii: "]") {
            text = text.dropFirst().dropLast()
        }
        if text.contains(UInt8(ascii: ":")) {
            if let zone = text.firstIndex(of: UInt8(ascii: "%")) { text = text[..<zone] }
            guard let value = Self.ipv6(text) else { return nil }
            self = .v6(value)
        } else if let value = IPv4Literal.value(text) {
            self = .v4(value)
        } else {
            return nil
        }
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) carries, else nil.
    public var mappedIPv4: UInt32? {
        guard case .v6(let value) = self, value >> 32 == 0xFFFF else { return nil }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Dotted quad, or RFC 5952 text (lower case, the longest run of two or more zero groups as `::`).
    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(let value):
            let groups = (0..<8).map { UInt16(truncatingIfNeeded: value >> UInt128(112 - 16 * $0)) }
            var best = (start: -1, count: 0)
            var run = (start: -1, count: 0)
            for (index, group) in groups.enumerated() {
                if group == 0 {
                    run = run.start < 0 ? (index, 1) : (run.start, run.count + 1)
                    if run.count > best.count { best = run }
                } else {
                    run = (-1, 0)
                }
            }
            func hex(_ range: Range<Int>) -> String {
                groups[range].map { String($0, radix: 16) }.joined(separator: ":")
            }
            guard best.count >= 2 else { return hex(0..<8) }
            return hex(0..<best.start) + "::" + hex((best.start + best.count)..<8)
        }
    }

    /// RFC 4291 text as `inet_pton(AF_INET6)` reads it: up to eight groups
    /// of one to four hex digits, one `::` standing for at least one zero
    /// group, and optionally a dotted quad (four decimal parts, no leading
    /// zeros) in place of the last two groups.
    static func ipv6(_ text: Substring.UTF8View.SubSequence) -> UInt128? {
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var compressed = false
        var index = text.startIndex
        if text.starts(with: "::".utf8) {
            compressed = true
            index = text.index(index, offsetBy: 2)
        } else if text.first == UInt8(ascii: ":") {
            return nil
        }
        while index < text.endIndex {
            let groupEnd = text[index...].firstIndex(of: UInt8(ascii: ":")) ?? text.endIndex
            let group = text[index..<groupEnd]
            if groupEnd == text.endIndex, group.contains(UInt8(ascii: ".")) {
                guard let quad = dottedQuad(group) else { return nil }
                if compressed {
                    tail += [UInt16(quad >> 16), UInt16(quad & 0xFFFF)]
                } else {
                    head += [UInt16(quad >> 16), UInt16(quad & 0xFFFF)]
                }
                index = groupEnd
                break
            }
            guard (1...4).contains(group.count) else { return nil }
            var value: UInt16 = 0
            for byte in group {
                guard let digit = byte.hexDigitValue.map(UInt16.init) else { return nil }
                value = value << 4 | digit
            }
            if compressed { tail.append(value) } else { head.append(value) }
            guard head.count + tail.count <= 8 else { return nil }
            index = groupEnd
            guard index < text.endIndex else { break }
            // One ":" between groups; "::" once, and not at the very end after a group unless it compresses.
            let next = text.index(after: index)
            if next < text.endIndex, text[next] == UInt8(ascii: ":") {
                guard !compressed else { return nil }
                compressed = true
                index = text.index(after: next)
            } else {
                guard next < text.endIndex else { return nil }
                index = next
            }
        }
        let count = head.count + tail.count
        guard count <= 8, compressed ? count < 8 : count == 8 else { return nil }
        let groups = head + [UInt16](repeating: 0, count: 8 - count) + tail
        return groups.reduce(0) { $0 << 16 | UInt128($1) }
    }

    /// `a.b.c.d` strictly (as `inet_pton(AF_INET)` reads it): four decimal parts of 0–255, no leading zeros.
    private static func dottedQuad(_ text: Substring.UTF8View.SubSequence) -> UInt32? {
        var value: UInt32 = 0
        var parts = 0
        for part in text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...3).contains(part.count), part.first != UInt8(ascii: "0") || part.count == 1 else { return nil }
            var number: UInt32 = 0
            for byte in part {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                number = number * 10 + UInt32(byte - UInt8(ascii: "0"))
            }
            guard number <= 255 else { return nil }
            value = value << 8 | number
            parts += 1
        }
        return parts == 4 ? value : nil
    }
}
