/// An error as a person at a terminal reads it. The lower modules' errors
/// end their descriptions with whether the operation can succeed when tried
/// again — `(retryable)`, `[not retryable]`, `, retryable)` — which their
/// callers and Herald's logs use; a command has already decided what to do
/// about the failure, so the words are noise to its user and are left out
/// here, wherever the error sits in the text (a wrapped cause included).
enum ErrorText {
    /// The classifications as the lower modules write them, and what each becomes.
    static let classifications: [(written: String, shown: String)] = [
        (" (not retryable)", ""), (" (retryable)", ""), (" [not retryable]", ""), (" [retryable]", ""),
        (", not retryable)", ")"), (", retryable)", ")"),
    ]

    /// `error`'s description without its retry classification.
    static func forTerminal(_ error: any Error) -> String {
        var text = String(describing: error)
        for (written, shown) in classifications { text = text.replacing(written, with: shown) }
        return text
    }
}
