/// The one place that decides what of a request or an answer may appear in a
/// debug trace (docs/debug-trace.md, "Redaction"): which headers are secret,
/// how a device token is masked, and how large a body or header may be.
/// ``DeliveryTraceRecorder`` passes everything through it as it records, so a
/// secret never reaches a trace, not even in memory.
public enum DebugRedaction {
    /// The most bytes of a body kept (request and answer each); longer ones are cut and marked truncated.
    public static let maxBodyBytes = 4096
    /// The most bytes of one header value kept.
    public static let maxHeaderValueBytes = 1024
    /// The most headers kept per request or answer.
    public static let maxHeaders = 64
    /// The most HTTP exchanges kept per target (a credential refresh or a lost answer sends again).
    public static let maxExchanges = 8
    /// What a secret value is replaced with.
    public static let redacted = "[redacted]"

    /// Headers whose values are credentials: never shown. `authorization`
    /// keeps its scheme (`bearer [redacted]`), so a trace still tells token
    /// auth from none.
    public static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-goog-api-key",
    ]

    /// A header value as a trace shows it: a secret header's value replaced,
    /// the device token masked, cut to ``maxHeaderValueBytes``.
    public static func header(name: String, value: String, deviceAddress: String?) -> String {
        let lower = name.lowercased()
        if secretHeaders.contains(lower) {
            if lower.hasSuffix("authorization"), let space = value.firstIndex(of: " ") {
                return String(value[..<space]) + " " + redacted
            }
            return redacted
        }
        return cut(text(value, deviceAddress: deviceAddress), to: maxHeaderValueBytes).text
    }

    /// `text` with every occurrence of the device token masked as logs mask
    /// it (``LogValue/mask(token:)``) and any password in a URL replaced (``URLSecrets``).
    public static func text(_ text: String, deviceAddress: String?) -> String {
        var result = text.contains("://") ? URLSecrets.redacted(text) : text
        if let deviceAddress, !deviceAddress.isEmpty, result.contains(deviceAddress) {
            result = String(decoding: masking(Array(result.utf8), deviceAddress: deviceAddress), as: UTF8.self)
        }
        return result
    }

    /// A request as sent, redacted and bounded.
    public static func request(
        method: String, url: String, headers: [(name: String, value: String)], body: [UInt8],
        deviceAddress: String?
    ) -> DeliveryTrace.Message {
        var message = self.body(body, deviceAddress: deviceAddress)
        message.method = method
        message.url = text(url, deviceAddress: deviceAddress)
        message.headers = self.headers(headers, deviceAddress: deviceAddress)
        return message
    }

    /// An answer as received, redacted and bounded.
    public static func response(
        status: Int, headers: [(name: String, value: String)], body: [UInt8],
        deviceAddress: String?
    ) -> DeliveryTrace.Message {
        var message = self.body(body, deviceAddress: deviceAddress)
        message.status = status
        message.headers = self.headers(headers, deviceAddress: deviceAddress)
        return message
    }

    private static func headers(_ headers: [(name: String, value: String)], deviceAddress: String?) -> [(
        name: String, value: String
    )] {
        headers.prefix(maxHeaders).map {
            (name: $0.name, value: header(name: $0.name, value: $0.value, deviceAddress: deviceAddress))
        }
    }

    /// The body masked first (a cut must not leave part of a token behind), then cut.
    private static func body(_ bytes: [UInt8], deviceAddress: String?) -> DeliveryTrace.Message {
        let masked = deviceAddress.map { masking(bytes, deviceAddress: $0) } ?? bytes
        let (text, truncated) = cut(String(decoding: masked, as: UTF8.self), to: maxBodyBytes)
        return DeliveryTrace.Message(headers: [], body: text, bodyBytes: bytes.count, bodyTruncated: truncated)
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary.
    static func cut(_ text: String, to limit: Int) -> (text: String, truncated: Bool) {
        guard text.utf8.count > limit else { return (text, false) }
        var kept = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > limit { break }
            kept.append(character)
        }
        return (kept, true)
    }

    /// `bytes` with every occurrence of `deviceAddress` replaced by its mask.
    static func masking(_ bytes: [UInt8], deviceAddress: String) -> [UInt8] {
        let needle = Array(deviceAddress.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return bytes }
        let mask = Array(LogValue.mask(token: deviceAddress).utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == needle[0], index + needle.count <= bytes.count,
                bytes[index..<index + needle.count].elementsEqual(needle)
            {
                result.append(contentsOf: mask)
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}
