import Glibc

/// An IPv4 or IPv6 socket address parsed from `host` and `port`, for binding.
struct SocketAddress {
    private var storage = sockaddr_storage()

    init(host: String, port: Int) throws(ObservabilityError) {
        guard (0...65535).contains(port) else { throw ObservabilityError("port \(port) is out of range") }
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                let sin = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                sin.pointee.sin_family = sa_family_t(AF_INET)
                sin.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
                sin.pointee.sin_addr = v4
            }
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            withUnsafeMutableBytes(of: &storage) { raw in
                let sin6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                sin6.pointee.sin6_family = sa_family_t(AF_INET6)
                sin6.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
                sin6.pointee.sin6_addr = v6
            }
        } else {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(literal, String(port), &hints, &result) == 0, let first = result,
                let addr = first.pointee.ai_addr
            else {
                throw ObservabilityError("cannot resolve listen host '\(host)'")
            }
            defer { freeaddrinfo(result) }
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.baseAddress!.copyMemory(from: addr, byteCount: Int(first.pointee.ai_addrlen))
            }
        }
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
