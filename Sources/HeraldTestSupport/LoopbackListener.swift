import Glibc

/// A TCP socket listening on 127.0.0.1 at a port the kernel picked, that
/// never accepts unless the test does: connections complete in its backlog
/// and then hear nothing (a server that hangs), or the test accepts one to
/// get a connected pair. Closed by `close()` or when released.
public final class LoopbackListener: @unchecked Sendable {
    /// The listening socket.
    public let descriptor: Int32
    /// The port it listens on.
    public let port: UInt16
    private var closed = false

    /// Nil when the socket cannot be bound or listened on.
    public init?(backlog: Int32 = 8) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, backlog) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(listener)
            return nil
        }
        descriptor = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close() }

    /// Stops listening; connections in the backlog are reset.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    /// Its address, for `connect`.
    public var address: sockaddr_in { Self.loopback(port: port) }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}
