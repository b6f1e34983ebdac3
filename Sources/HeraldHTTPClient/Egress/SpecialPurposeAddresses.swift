/// The one classifier of destination addresses: whether an address is a
/// public unicast address a push service may have, or which block of the
/// special-purpose registries it falls in (the words an egress refusal gives).
///
/// Why: a Web Push endpoint is chosen by whoever wrote the subscription, so
/// without this an event could make Herald POST to its own host, the
/// private network or a cloud metadata service and read the answer back.
/// The blocks are IANA's IPv4 and IPv6 Special-Purpose Address Registries
/// (RFC 6890 and the RFCs each entry cites), with multicast, and every IPv6
/// address outside global unicast (2000::/3). An IPv6 address that carries
/// an IPv4 address — IPv4-mapped `::ffff:0:0/96`, the NAT64 well-known prefix
/// `64:ff9b::/96`, 6to4 `2002::/16` — is judged by the IPv4 address it
/// carries, since that is where the packets end up.
public enum SpecialPurposeAddresses {
    /// A refused block: its prefix and what it is.
    struct Block {
        let prefix: IPAddress
        let length: Int
        let name: String

        func contains(_ address: IPAddress) -> Bool {
            switch (prefix, address) {
            case (.v4(let base), .v4(let value)):
                return length == 0 || (base ^ value) >> UInt32(32 - length) == 0
            case (.v6(let base), .v6(let value)):
                return length == 0 || (base ^ value) >> UInt128(128 - length) == 0
            default:
                return false
            }
        }

        /// `127.0.0.0/8 loopback (RFC 1122)`.
        var described: String { "\(prefix)/\(length) \(name)" }
    }

    /// Why `address` is not a public unicast address (`"127.0.0.0/8 loopback (RFC 1122)"`), or nil when it is one.
    public static func refusal(for address: IPAddress) -> String? {
        switch address {
        case .v4:
            return ipv4Blocks.first { $0.contains(address) }.map(\.described)
        case .v6(let value):
            for carrier in ipv4Carriers where carrier.block.contains(address) {
                let inner = IPAddress.v4(UInt32(truncatingIfNeeded: value >> UInt128(carrier.shift)))
                guard let why = refusal(for: inner) else { return nil }
                return "\(inner) in \(why), carried inside \(carrier.block.described)"
            }
            if let block = ipv6Blocks.first(where: { $0.contains(address) }) { return block.described }
            if !globalUnicast.contains(address) { return "outside 2000::/3, IPv6 global unicast (RFC 4291)" }
            return nil
        }
    }

    private static func v4(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> IPAddress {
        .v4(a << 24 | b << 16 | c << 8 | d)
    }
    private static func v6(_ high: UInt64) -> IPAddress { .v6(UInt128(high) << 64) }

    /// IANA IPv4 Special-Purpose Address Registry, plus multicast.
    static let ipv4Blocks: [Block] = [
        Block(prefix: v4(0, 0, 0, 0), length: 8, name: "\"this network\", the unspecified address included (RFC 791)"),
        Block(prefix: v4(10, 0, 0, 0), length: 8, name: "private-use (RFC 1918)"),
        Block(prefix: v4(100, 64, 0, 0), length: 10, name: "shared address space (RFC 6598)"),
        Block(prefix: v4(127, 0, 0, 0), length: 8, name: "loopback (RFC 1122)"),
        Block(prefix: v4(169, 254, 0, 0), length: 16, name: "link-local (RFC 3927)"),
        Block(prefix: v4(172, 16, 0, 0), length: 12, name: "private-use (RFC 1918)"),
        Block(prefix: v4(192, 0, 0, 0), length: 24, name: "IETF protocol assignments (RFC 6890)"),
        Block(prefix: v4(192, 0, 2, 0), length: 24, name: "documentation, TEST-NET-1 (RFC 5737)"),
        Block(prefix: v4(192, 31, 196, 0), length: 24, name: "AS112-v4 (RFC 7535)"),
        Block(prefix: v4(192, 52, 193, 0), length: 24, name: "AMT (RFC 7450)"),
        Block(prefix: v4(192, 88, 99, 0), length: 24, name: "deprecated 6to4 relay anycast (RFC 7526)"),
        Block(prefix: v4(192, 168, 0, 0), length: 16, name: "private-use (RFC 1918)"),
        Block(prefix: v4(192, 175, 48, 0), length: 24, name: "direct delegation AS112 service (RFC 7534)"),
        Block(prefix: v4(198, 18, 0, 0), length: 15, name: "benchmarking (RFC 2544)"),
        Block(prefix: v4(198, 51, 100, 0), length: 24, name: "documentation, TEST-NET-2 (RFC 5737)"),
        Block(prefix: v4(203, 0, 113, 0), length: 24, name: "documentation, TEST-NET-3 (RFC 5737)"),
        Block(prefix: v4(224, 0, 0, 0), length: 4, name: "multicast (RFC 5771)"),
        Block(
            prefix: v4(240, 0, 0, 0), length: 4,
            name: "reserved, the limited broadcast address included (RFC 1112, RFC 919)"),
    ]

    /// IPv6 blocks that carry an IPv4 address, and where it sits (bits from the right).
    static let ipv4Carriers: [(block: Block, shift: Int)] = [
        (Block(prefix: .v6(0xFFFF << 32), length: 96, name: "IPv4-mapped addresses"), 0),
        (Block(prefix: v6(0x0064_FF9B_0000_0000), length: 96, name: "the NAT64 well-known prefix (RFC 6052)"), 0),
        (Block(prefix: v6(0x2002_0000_0000_0000), length: 16, name: "6to4 (RFC 3056)"), 80),
    ]

    /// IANA IPv6 Special-Purpose Address Registry and the rest of what is not
    /// public unicast, most specific first (the first match names the refusal).
    static let ipv6Blocks: [Block] = [
        Block(prefix: .v6(0), length: 128, name: "the unspecified address (RFC 4291)"),
        Block(prefix: .v6(1), length: 128, name: "loopback (RFC 4291)"),
        Block(prefix: .v6(0), length: 96, name: "deprecated IPv4-compatible addresses (RFC 4291)"),
        Block(prefix: v6(0x0064_FF9B_0001_0000), length: 48, name: "local-use NAT64 (RFC 8215)"),
        Block(prefix: v6(0x0100_0000_0000_0000), length: 64, name: "discard-only (RFC 6666)"),
        Block(
            prefix: v6(0x2001_0000_0000_0000), length: 23, name: "IETF protocol assignments, Teredo included (RFC 2928)"
        ),
        Block(prefix: v6(0x2001_0DB8_0000_0000), length: 32, name: "documentation (RFC 3849)"),
        Block(prefix: v6(0x2620_004F_8000_0000), length: 48, name: "direct delegation AS112 service (RFC 7534)"),
        Block(prefix: v6(0x3FFF_0000_0000_0000), length: 20, name: "documentation (RFC 9637)"),
        Block(prefix: v6(0x5F00_0000_0000_0000), length: 16, name: "segment routing SIDs (RFC 9602)"),
        Block(prefix: v6(0xFC00_0000_0000_0000), length: 7, name: "unique local (RFC 4193)"),
        Block(prefix: v6(0xFE80_0000_0000_0000), length: 10, name: "link-local (RFC 4291)"),
        Block(prefix: v6(0xFEC0_0000_0000_0000), length: 10, name: "deprecated site-local (RFC 3879)"),
        Block(prefix: v6(0xFF00_0000_0000_0000), length: 8, name: "multicast (RFC 4291)"),
    ]

    static let globalUnicast = Block(prefix: v6(0x2000_0000_0000_0000), length: 3, name: "global unicast")
}
