/// What a provider (or a proxy in front of it) writes into an answer is its
/// own to fill: a reason, an explanation, a message id of any size and with
/// any bytes. These are the rules that keep it short and free of control
/// characters before it reaches an outcome, a log line or `herald tail`;
/// every provider's `DeliveryResult` and `DeliveryFailure` pass through them
/// (their initializers apply ``DeliveryReason``, ``DeliveryDetail`` and
/// ``ProviderMessageID``; each provider reads its answer's reason through
/// ``ProviderReason``).

/// The reason a provider names in its answer (`BadDeviceToken`,
/// `UNREGISTERED`, `InvalidParameters`): kept only when it is a short token,
/// what consumers match on. Anything else — a sentence, a huge string, a
/// control character — is not a reason: the answer's reason becomes the
/// caller's fallback (the HTTP status's name), and the provider's words
/// move, bounded and cleaned, to the front of the detail.
public enum ProviderReason {
    /// The longest reason kept as the provider wrote it, in bytes.
    public static let maxBytes = 64

    /// Whether `text` is kept as a reason: 1 to ``maxBytes`` bytes of
    /// ASCII letters, digits, `_`, `.`, `:` and `-`.
    public static func isToken(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxBytes else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// The reason and detail of an answer whose provider said `said` as its
    /// reason: `said` when it is a token, else `fallback` with `said` (cut
    /// and cleaned) before the provider's other words in the detail.
    /// `fallback` is Herald's (a status's name), never the provider's.
    public static func reason(_ said: String?, fallback: String, detail: String?) -> (reason: String, detail: String?) {
        guard let said else { return (fallback, DeliveryDetail.bounded(detail)) }
        if isToken(said) { return (said, DeliveryDetail.bounded(detail)) }
        guard let words = DeliveryDetail.bounded(said) else { return (fallback, DeliveryDetail.bounded(detail)) }
        guard let detail = DeliveryDetail.bounded(detail) else { return (fallback, words) }
        return (fallback, DeliveryDetail.bounded(words + "; " + detail))
    }
}

/// Bounds a provider's explanation before it reaches an outcome or a log line:
/// an answer body is the provider's (or a proxy's) to fill.
public enum DeliveryDetail {
    /// The most bytes of a provider's explanation kept.
    public static let maxBytes = 512

    /// `text` cut to ``maxBytes`` at a character boundary, control characters
    /// (C0, DEL, C1) replaced by spaces; nil when nothing is left.
    public static func bounded(_ text: String?) -> String? {
        guard let text else { return nil }
        let clean = ProviderText.cut(text, maxBytes: maxBytes)
        return clean.isEmpty ? nil : clean
    }
}

/// Bounds every reason a result carries — Herald's own sentences, which may
/// quote a provider (an OAuth error, a transport error), as much as a
/// provider's: control characters replaced by spaces, at most ``maxBytes``.
/// Herald's own reasons are shorter and printable: they pass unchanged.
public enum DeliveryReason {
    /// The most bytes of a reason kept.
    public static let maxBytes = 256

    /// `text` cut to ``maxBytes`` at a character boundary, control characters replaced by spaces.
    public static func bounded(_ text: String) -> String {
        ProviderText.cut(text, maxBytes: maxBytes)
    }
}

/// The provider's id of an accepted message (`apns-id`, FCM's message name,
/// a Web Push `Location`): kept only when it is printable ASCII without
/// blanks and at most ``maxBytes`` long; anything else is dropped, never cut
/// (a cut id names nothing).
public enum ProviderMessageID {
    /// The longest id kept, in bytes (a push service's `Location` URL is a few hundred).
    public static let maxBytes = 1024

    /// `id` when it is 1 to ``maxBytes`` bytes of visible ASCII (`!` to `~`); nil otherwise.
    public static func bounded(_ id: String?) -> String? {
        guard let id, !id.utf8.isEmpty, id.utf8.count <= maxBytes,
            id.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return id
    }
}

/// The one cut every rule above makes.
enum ProviderText {
    /// `text` with each character holding a control character (C0, DEL, C1)
    /// as a space, without leading or trailing spaces, cut at a character
    /// boundary to at most `maxBytes` bytes (`…` marking the cut). Reads no
    /// further into `text` than the cut: a huge text costs what is kept.
    static func cut(_ text: String, maxBytes: Int) -> String {
        let ellipsis = "…"
        var kept = ""
        var bytes = 0
        var pendingSpaces = 0
        var over = false
        for character in text {
            let isSpace = character == " " || character.unicodeScalars.contains(where: LogfmtValue.isControl)
            if isSpace {
                if !kept.isEmpty { pendingSpaces += 1 }
                continue
            }
            let size = pendingSpaces + character.utf8.count
            if bytes + size > maxBytes {
                over = true
                break
            }
            if pendingSpaces > 0 { kept.append(String(repeating: " ", count: pendingSpaces)) }
            pendingSpaces = 0
            kept.append(character)
            bytes += size
        }
        guard over else { return kept }
        // Make room for the ellipsis: drop characters from the end.
        while bytes + ellipsis.utf8.count > maxBytes, let last = kept.popLast() { bytes -= last.utf8.count }
        while kept.last == " " { kept.removeLast(); bytes -= 1 }
        return kept + ellipsis
    }
}
