import Foundation
import Glibc
import HeraldTestSupport

/// A TCP port nothing listens on right now (bound to 0 by us, then closed).
func freeLocalPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw TestFailure("bind: \(String(cString: strerror(errno)))") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A minimal HTTP/1.0 GET over a socket (for `/metrics`, `/healthz`, `/readyz`).
/// nil when nothing answers (not listening yet, or gone).
func httpGet(port: Int, path: String, timeoutSeconds: Int = 5) -> (status: Int, body: String)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    var sent = 0
    while sent < request.count {
        let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { return nil }
        sent += n
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { response += buffer[..<n] } else if n < 0 && errno == EINTR { continue } else { break }
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let headerEnd = text.range(of: "\r\n\r\n") else { return nil }
    let statusLine = text[..<headerEnd.lowerBound].split(separator: "\r\n").first ?? ""
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    return (status, String(text[headerEnd.upperBound...]))
}

/// The sum of a metric's samples (all label sets) in a Prometheus text exposition.
func metricSum(_ name: String, in exposition: String) -> Double {
    var total = 0.0
    for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
        let sample = line.split(separator: " ")
        guard sample.count >= 2 else { continue }
        let series = sample[0]
        guard series == name || series.hasPrefix(name + "{") else { continue }
        total += Double(sample[1]) ?? 0
    }
    return total
}
