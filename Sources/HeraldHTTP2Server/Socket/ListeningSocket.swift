import Glibc
import Synchronization

/// The server's bound, listening TCP socket. Bound in the server's init so the
/// chosen port is known before `run()`; closed exactly once, by the loop at
/// shutdown or by `deinit`, so a restarted server can bind the same port.
final class ListeningSocket: Sendable {
    let fd: Int32
    let port: Int
    private let closed = Atomic<Bool>(false)

    init(host: String, port: Int) throws(HTTP2ServerError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalidConfiguration("host '\(host)' is not an IPv4 address")
        }
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(call: "bind \(host):\(port)", errno: code)
        }
        guard listen(fd, 1024) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(call: "listen", errno: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { close() }

    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.close(fd)
    }
}
