import Glibc

/// A plain blocking TCP client for tests that must misbehave as no HTTP
/// library will: hold a connection open and silent, send half a request line,
/// write hand-made HTTP/2 frames. Optionally bound to a chosen source address
/// (any of 127.0.0.0/8 reaches the loopback), so a test can play two clients.
///
/// Sendable so a test can hand it to `onOwnThread` for its blocking waits;
/// one thread uses it at a time.
public final class RawTCPClient: @unchecked Sendable {
    /// What waiting for input found.
    public enum Received: Equatable, Sendable {
        case bytes([UInt8])
        /// The peer closed (FIN) or reset the connection.
        case closed
        case timedOut
    }

    public let fd: Int32

    /// Connects to `host` (an IPv4 or IPv6 literal) and `port`, from `source` if given.
    public init(host: String, port: Int, source: String? = nil, timeout: Duration = .seconds(5)) throws(RawTCPError) {
        let target = try Self.address(host, port: port)
        let fd = socket(Int32(target.family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RawTCPError("socket: \(String(cString: strerror(errno)))") }
        self.fd = fd
        if let source {
            var local = try Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, local.length) }
            }
            guard bound == 0 else { throw RawTCPError("bind \(source): \(String(cString: strerror(errno)))") }
        }
        var remote = target
        var tv = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &remote.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, remote.length) }
        }
        guard connected == 0 else { throw RawTCPError("connect \(host):\(port): \(String(cString: strerror(errno)))") }
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `bytes`; false if the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Waits up to `timeout` for input: whatever one read returns, or the peer's close.
    public func receive(timeout: Duration) -> Received {
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&pollFD, 1, milliseconds)
        guard ready > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return .closed }
        return .bytes(Array(buffer[0..<n]))
    }

    /// Reads until the peer closes or `timeout` passes: everything read, and whether it closed.
    public func readUntilClosed(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var all: [UInt8] = []
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (all, false) }
            switch receive(timeout: left) {
            case .bytes(let bytes): all += bytes
            case .closed: return (all, true)
            case .timedOut: return (all, false)
            }
        }
    }

    private static func address(_ host: String, port: Int) throws(RawTCPError) -> (
        storage: sockaddr_storage, length: socklen_t, family: Int32
    ) {
        var storage = sockaddr_storage()
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var sin = sockaddr_in()
            sin.sin_family = sa_family_t(AF_INET)
            sin.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            sin.sin_addr = v4
            withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: sin) { raw.copyMemory(from: $0) } }
            return (storage, socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET)
        }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { throw RawTCPError("'\(host)' is not an IP address literal") }
        var sin6 = sockaddr_in6()
        sin6.sin6_family = sa_family_t(AF_INET6)
        sin6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        sin6.sin6_addr = v6
        withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: sin6) { raw.copyMemory(from: $0) } }
        return (storage, socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6)
    }
}

/// A raw test connection could not be made: what failed and why.
public struct RawTCPError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Whether this machine has the IPv6 loopback address `::1` (a container may run without IPv6).
public func hasIPv6Loopback() -> Bool {
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var sin6 = sockaddr_in6()
    sin6.sin6_family = sa_family_t(AF_INET6)
    sin6.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &sin6) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
    } == 0
}
