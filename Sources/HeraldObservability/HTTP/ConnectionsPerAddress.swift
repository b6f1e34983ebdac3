import Glibc
import HeraldCore
import HeraldSystem

/// The metrics listener's per-address connection limit, kept here through
/// libmicrohttpd's accept policy and connection notices rather than by its
/// own per-IP limit, which treats every address alike: with
/// `exemptsLoopback`, connections from this machine (127.0.0.0/8, `::1`,
/// and IPv4-mapped loopback) are not counted, so a local probe — a
/// container's health check, a sidecar — reaches `/healthz` however many
/// idle connections another local client holds, within `maxConnections`.
///
/// A connection is counted when the accept policy admits it and released
/// when libmicrohttpd reports it closed; between the two libmicrohttpd can
/// drop it only when it runs out of memory, which leaves it counted.
final class ConnectionsPerAddress: Sendable {
    /// A client's IP address: 4 bytes for IPv4 (an IPv4-mapped IPv6 address
    /// too, so a dual-stack listener counts it once), 16 for IPv6.
    struct Address: Hashable, Sendable {
        let bytes: [UInt8]

        init?(_ address: UnsafePointer<sockaddr>) {
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
                bytes = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
            case AF_INET6:
                let v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
                let all = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
                let mapped = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF
                bytes = mapped ? Array(all[12...]) : all
            default:
                return nil
            }
        }

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// 127.0.0.0/8 or ::1.
        var isLoopback: Bool {
            bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
        }
    }

    let limit: Int
    let exemptsLoopback: Bool
    private let counts = Locked<[Address: Int]>([:])

    init(limit: Int, exemptsLoopback: Bool) {
        self.limit = limit
        self.exemptsLoopback = exemptsLoopback
    }

    /// Whether connections from `address` are counted at all.
    func counts(_ address: Address) -> Bool {
        !(exemptsLoopback && address.isLoopback)
    }

    /// Counts a new connection from `address` and returns true, or returns
    /// false when that address holds `limit` connections already.
    func admit(_ address: Address) -> Bool {
        guard counts(address) else { return true }
        return counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < limit else { return false }
            counts[address] = open + 1
            return true
        }
    }

    /// A counted connection from `address` closed.
    func release(_ address: Address) {
        guard counts(address) else { return }
        counts.withLock { counts in
            let open = counts[address, default: 0] - 1
            counts[address] = open > 0 ? open : nil
        }
    }

    /// Connections counted for `address` now.
    func open(from address: Address) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}
