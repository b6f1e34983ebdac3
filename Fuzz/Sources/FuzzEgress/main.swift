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
    precondition((refusal != nil) == (parsed.map { SpecialPurposeAddresses.refusal(for: $0) != nil } ?? false),
                 "the pre-check and the classifier disagree on \(host)")
    precondition(EgressPolicy.unrestricted.refusal(forHost: host) == nil, "unrestricted refused \(host)")

    // No NUL inside: the C parsers would stop there.
    if !host.utf8.contains(0) {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") && host.utf8.count >= 2 ? String(host.dropFirst().dropLast()) : host
        if bare.contains(":"), !bare.contains("%") {
            var address = in6_addr()
            let valid = inet_pton(AF_INET6, bare, &address) == 1
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            precondition(parsed == (valid ? IPAddress(bytes: bytes) : nil), "IPv6 \(bare): ours \(String(describing: parsed)), inet_pton \(valid)")
        } else if !bare.contains(":"), case .v4(let value)? = parsed {
            var address = in_addr()
            precondition(inet_aton(bare, &address) != 0 && UInt32(bigEndian: address.s_addr) == value,
                         "IPv4 \(bare): ours \(value), inet_aton differs")
        }
    }

    if let parsed {
        let text = "\(parsed)"
        precondition(IPAddress(host: text) == parsed, "\(text) does not parse back to \(parsed)")
        if let carried = parsed.mappedIPv4 {
            let inner = SpecialPurposeAddresses.refusal(for: .v4(carried)) != nil
            precondition((SpecialPurposeAddresses.refusal(for: parsed) != nil) == inner, "::ffff:\(IPAddress.v4(carried)) judged apart from it")
        }
    }

    if apple.allows(host) {
        var name = host.lowercased()
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }
        precondition(name == "push.apple.com" || name.hasSuffix(".push.apple.com"), "push.apple.com allowed \(host)")
    }
}
