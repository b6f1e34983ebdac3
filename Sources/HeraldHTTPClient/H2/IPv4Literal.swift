/// Reads an IPv4 literal in every form libcurl's URL parser accepts and
/// writes it as a dotted quad, so the nghttp2 engine connects to and checks
/// the certificate against the same address libcurl would.
///
/// Without it, `127.1`, `127.0.1` or `2130706433` (all 127.0.0.1 to
/// `getaddrinfo`) were neither a dotted quad for OpenSSL's IP check nor a
/// name. The forms, as `inet_aton` and libcurl read them: one to four parts
/// separated by dots, each decimal, octal (leading `0`) or hexadecimal
/// (`0x`); the last part fills the bytes the others leave (`a`: 32 bits,
/// `a.b`: 8.24, `a.b.c`: 8.8.16). Anything else (a sign, an empty part, a
/// trailing dot, a part too large, `08`) is not an IPv4 literal but a name.
enum IPv4Literal {
    /// The dotted quad for `host`, or nil when `host` is not an IPv4 literal.
    static func canonical(_ host: some Collection<UInt8>) -> String? {
        guard let address = value(host) else { return nil }
        return "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF)"
    }

    /// The address `host` names (in host byte order), or nil when `host` is not an IPv4 literal.
    /// Called for every request's URL: it reads the parts as it goes, with no array.
    static func value(_ host: some Collection<UInt8>) -> UInt32? {
        var count = 0
        // The parts before the last, each in its byte; the last fills the bytes they leave.
        var leading: UInt64 = 0
        var last: UInt64 = 0
        var index = host.startIndex
        while true {
            guard count < 4, let (value, next) = number(in: host, from: index) else { return nil }
            if count > 0 {
                guard last <= 0xFF else { return nil }
                leading |= last << UInt64(24 - 8 * (count - 1))
            }
            last = value
            count += 1
            index = next
            if index == host.endIndex { break }
            guard host[index] == UInt8(ascii: "."), count < 4 else { return nil }
            index = host.index(after: index)
        }
        let lastBits = UInt64(8 * (5 - count))
        guard last < (1 << lastBits) else { return nil }
        return UInt32(truncatingIfNeeded: leading | last)
    }

    /// One part: its value and the index after it; nil when it is not a
    /// number (no digit first) or exceeds 32 bits.
    private static func number<C: Collection<UInt8>>(in host: C, from start: C.Index) -> (UInt64, C.Index)? {
        guard start < host.endIndex, isDigit(host[start]) else { return nil }
        var index = start
        var radix: UInt64 = 10
        if host[index] == UInt8(ascii: "0") {
            let next = host.index(after: index)
            if next < host.endIndex, host[next] | 0x20 == UInt8(ascii: "x") {
                let first = host.index(after: next)
                // "0x" without a hex digit: the number is the 0, and "x" makes it no literal.
                guard first < host.endIndex, digit(host[first], radix: 16) != nil else { return nil }
                radix = 16
                index = first
            } else {
                radix = 8
            }
        }
        var value: UInt64 = 0
        while index < host.endIndex, let digit = digit(host[index], radix: radix) {
            value = value * radix + digit
            guard value <= UInt64(UInt32.max) else { return nil }
            index = host.index(after: index)
        }
        return (value, index)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func digit(_ byte: UInt8, radix: UInt64) -> UInt64? {
        let value: UInt64
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
        return value < radix ? value : nil
    }
}
