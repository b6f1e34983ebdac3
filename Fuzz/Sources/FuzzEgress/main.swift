// Fuzzes the egress policy's address classifier (HeraldHTTPClient): any text
// as a URL's host through `IPAddress(host:)`, `SpecialPurposeAddresses` and
// `AllowedHosts`. The IPv6 parser reads exactly what `inet_pton` reads; an
// IPv4 literal it reads, `inet_aton` reads as the same address; an address
// prints to text that parses back to it; an IPv4-mapped address is refused
// exactly when the IPv4 address it carries is; a suffix entry allows only
// that name and the names below it.
import FuzzSupport
import Glibc
import HeraldHTTPClient

let policy = EgressPolicy.publicAddressesOnly
let apple = AllowedHosts(["push.apple.com"])

FuzzDriver.run { input in
    let host = String(decoding: input, as: UTF8.self)
    let parsed = IPAddress(host: host)
    let refusal = policy.refusal(forHost: host)
    precondition(
        (refusal != nil) == (parsed.map { SpecialPurposeAddresses.refusal(for: $0) != nil } ?? false),
        "the pre-check and the classifier disagree on \(host)")
    precondition(EgressPolicy.unrestricted.refusal(forHost: host) == nil, "unrestricted refused \(host)")

    // Byte-wise, as the parser reads it; no NUL inside (the C parsers would stop there).
    let bytes = Array(host.utf8)
    if !bytes.contains(0) {
        let bracketed = bytes.count >= 2 && bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]")
        let bare = String(decoding: bracketed ? bytes.dropFirst().dropLast() : bytes[...], as: UTF8.self)
        if bare.utf8.contains(UInt8(ascii: ":")), !bare.utf8.contains(UInt8(ascii: "%")) {
            var address = in6_addr()
            let valid = inet_pton(AF_INET6, bare, &address) == 1
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            precondition(
                parsed == (valid ? IPAddress(bytes: bytes) : nil),
                "IPv6 \(bare): ours \(String(describing: parsed)), inet_pton \(valid)")
        } else if !bare.utf8.contains(UInt8(ascii: ":")), case .v4(let value)? = parsed {
            var address = in_addr()
            precondition(
                inet_aton(bare, &address) != 0 && UInt32(bigEndian: address.s_addr) == value,
                "IPv4 \(bare): ours \(value), inet_aton differs")
        }
    }

    if let parsed {
        let text = "\(parsed)"
        precondition(IPAddress(host: text) == parsed, "\(text) does not parse back to \(parsed)")
        if let carried = parsed.mappedIPv4 {
            let inner = SpecialPurposeAddresses.refusal(for: .v4(carried)) != nil
            precondition(
                (SpecialPurposeAddresses.refusal(for: parsed) != nil) == inner,
                "::ffff:\(IPAddress.v4(carried)) judged apart from it")
        }
    }

    if apple.allows(host) {
        var name = Array(host.utf8).map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        if name.count > 1, name.last == UInt8(ascii: ".") { name.removeLast() }
        let suffix = Array(".push.apple.com".utf8)
        precondition(
            name.elementsEqual(suffix.dropFirst())
                || (name.count > suffix.count && name.suffix(suffix.count).elementsEqual(suffix)),
            "push.apple.com allowed \(host)")
    }
}
