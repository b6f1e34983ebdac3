import Glibc

/// A resolved socket address, ready for `connect`; `Sendable` so the
/// resolver thread can hand it to the loop.
struct H2Address: Sendable {
    let family: Int32
    /// The `sockaddr_in` / `sockaddr_in6` bytes.
    let storage: [UInt8]
    let length: socklen_t
    /// `address:port` for error messages.
    let text: String

    /// Resolves `host` with `getaddrinfo` (blocking: called on the loop thread
    /// only for IP literals, otherwise on a resolver thread). The error names the host.
    static func resolve(host: String, port: Int, numericOnly: Bool) -> (addresses: [H2Address], error: String?) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            return ([], "could not resolve host \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [H2Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            let length = Int(current.pointee.ai_addrlen)
            let bytes = Array(UnsafeRawBufferPointer(start: address, count: length))
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            getnameinfo(address, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let shown = current.pointee.ai_family == AF_INET6 ? "[\(name)]:\(port)" : "\(name):\(port)"
            addresses.append(
                H2Address(
                    family: current.pointee.ai_family, storage: bytes, length: current.pointee.ai_addrlen, text: shown))
        }
        return addresses.isEmpty ? ([], "could not resolve host \(host): no address") : (addresses, nil)
    }

    /// The IP address of `storage` (`sockaddr_in`'s 4 bytes at offset 4,
    /// `sockaddr_in6`'s 16 at offset 8, Linux's layout), for the egress policy.
    var ipAddress: IPAddress? {
        switch family {
        case AF_INET where storage.count >= 8: IPAddress(bytes: storage[4..<8])
        case AF_INET6 where storage.count >= 24: IPAddress(bytes: storage[8..<24])
        default: nil
        }
    }
}
