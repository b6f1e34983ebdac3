import Glibc

/// Why the server could not start or run: the failing call and its cause.
public enum HTTP2ServerError: Error, Sendable, CustomStringConvertible {
    /// A system call failed (`bind`, `epoll_create1`, ...), with errno.
    case system(call: String, errno: Int32)
    /// The TLS context could not be set up (certificate, key, CA file), with OpenSSL's error text.
    case tls(step: String, file: String?, openssl: String)
    /// The configuration cannot work (e.g. host is not an IPv4 literal).
    case invalidConfiguration(String)
    /// nghttp2 refused a setup call.
    case nghttp2(call: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .system(let call, let code):
            "HTTP/2 server: \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .tls(let step, let file, let openssl):
            "HTTP/2 server TLS: \(step)\(file.map { " (\($0))" } ?? "") failed: \(openssl)"
        case .invalidConfiguration(let message):
            "HTTP/2 server configuration: \(message)"
        case .nghttp2(let call, let code, let message):
            "HTTP/2 server: \(call) failed: \(message) (\(code))"
        }
    }
}
