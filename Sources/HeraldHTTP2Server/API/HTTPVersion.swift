/// The protocol a request arrived over. One port serves both (ALPN, or the
/// first bytes in cleartext), and a handler may answer them differently: the
/// APNs simulator refuses HTTP/1.1 as Apple does, Google's endpoints accept it.
public enum HTTPVersion: String, Sendable, Hashable {
    case http2 = "HTTP/2"
    case http1_1 = "HTTP/1.1"
}
