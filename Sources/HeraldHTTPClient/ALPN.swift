import COpenSSL

/// The one check both engines make of a TLS connection before a request
/// goes out on it: ALPN selected `h2`. APNs and FCM speak only HTTP/2, and a
/// server (or a proxy in front of it) that answers in HTTP/1.1 is not one of
/// them; libcurl would otherwise fall back to HTTP/1.1 silently.
enum ALPN {
    /// Whether ALPN on `ssl` selected `h2`; otherwise what it selected (nil: nothing).
    static func negotiatedH2(_ ssl: OpaquePointer) -> (isH2: Bool, selected: String?) {
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        guard let selected, length > 0 else { return (false, nil) }
        let bytes = UnsafeBufferPointer(start: selected, count: Int(length))
        return (bytes.elementsEqual("h2".utf8), text(bytes))
    }

    /// A protocol id for messages: printable ASCII, other bytes as `?`, at most 32.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes.prefix(32).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
