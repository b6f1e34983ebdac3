import COpenSSL

/// OpenSSL's error queue, which is per thread: the one place a failed
/// OpenSSL call's entries become text.
///
/// `SSL_get_error` looks at that queue before anything else, so an entry one
/// call left behind turns another's harmless "would block" into a fatal
/// error: a loop thread shared by many connections starts every OpenSSL call
/// with `clear()`, and takes a failed call's entries with `drain()`.
public enum OpenSSLErrorQueue {
    /// What `drain()` says when OpenSSL recorded nothing.
    public static let nothingRecorded = "no OpenSSL error recorded"

    /// Empties the calling thread's queue: the next call's errors are its own.
    public static func clear() {
        ERR_clear_error()
    }

    /// Empties the calling thread's queue into one readable line, its entries
    /// joined by "; ", or `ifEmpty` when there is none.
    public static func drain(ifEmpty: String = nothingRecorded) -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? ifEmpty : messages.joined(separator: "; ")
    }
}
