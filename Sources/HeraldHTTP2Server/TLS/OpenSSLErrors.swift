import COpenSSL

/// OpenSSL's error queue, which is per thread: the loop thread shares one
/// queue among all its connections.
///
/// `SSL_get_error` looks at that queue before anything else, so an entry one
/// connection's call left behind turns another connection's harmless
/// "would block" into a fatal error and closes it. Every OpenSSL call on the
/// loop therefore starts with `clear()`, and a failed call's entries are taken
/// with `drain()` for that connection's log line.
enum OpenSSLErrors {
    /// Empties the calling thread's queue: the next call's errors are its own.
    static func clear() {
        ERR_clear_error()
    }

    /// Empties the calling thread's queue into one readable line.
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            messages.append(String(decoding: text, as: UTF8.self))
        }
        return messages.isEmpty ? "no OpenSSL error recorded" : messages.joined(separator: "; ")
    }
}
