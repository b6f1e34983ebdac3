import COpenSSL

/// Drains OpenSSL's per-thread error queue into one readable line.
enum OpenSSLErrors {
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
