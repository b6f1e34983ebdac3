// Fuzzes the rules that clean what a provider writes into an answer before it
// reaches an outcome, a log line or the CLI (HeraldCore: ProviderReason,
// DeliveryReason, DeliveryDetail, ProviderMessageID, LogfmtValue): any bytes,
// as the reason a provider names and as its words, give a reason that is the
// provider's token or the fallback, a detail and reason within their bounds
// and without a control character, and a logfmt value without one.
import FuzzSupport
import HeraldCore

/// C0, DEL or C1.
func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

let fallback = "BadRequest"

FuzzDriver.run { input in
    let bytes = Array(input)
    let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let said = String(decoding: bytes[..<split], as: UTF8.self)
    let words = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : nil

    let (reason, detail) = ProviderReason.reason(said, fallback: fallback, detail: words)
    precondition(
        reason == fallback || reason == said,
        "the reason is neither the provider's nor the fallback: \(reason.debugDescription)")
    precondition(
        reason == fallback || ProviderReason.isToken(reason),
        "a reason kept that is not a token: \(reason.debugDescription)")
    precondition(reason.utf8.count <= max(ProviderReason.maxBytes, fallback.utf8.count), "reason over its bound")
    if let detail {
        precondition(detail.utf8.count <= DeliveryDetail.maxBytes, "detail of \(detail.utf8.count) bytes")
        precondition(!hasControl(detail), "a control character in the detail: \(detail.debugDescription)")
        precondition(DeliveryDetail.bounded(detail) == detail, "bounding a bounded detail changed it")
    }

    let result = DeliveryResult(.failed, reason: said, detail: words, providerMessageID: said)
    if let kept = result.reason {
        precondition(
            kept.utf8.count <= DeliveryReason.maxBytes && !hasControl(kept), "result reason: \(kept.debugDescription)")
    }
    if let id = result.providerMessageID {
        precondition(
            id == said && id.utf8.count <= ProviderMessageID.maxBytes
                && id.utf8.allSatisfy { (0x21...0x7E).contains($0) },
            "message id: \(id.debugDescription)")
    }
    let failure = DeliveryFailure(reason: said, detail: words)
    precondition(failure.reason.utf8.count <= DeliveryReason.maxBytes && !hasControl(failure.reason), "failure reason")

    for text in [said, words ?? ""] {
        precondition(!hasControl(LogfmtValue.rendered(text)), "a control character in a logfmt value")
        precondition(!hasControl(LogfmtValue.quoted(text)), "a control character in a quoted value")
        precondition(!hasControl(LogfmtValue.escapingControls(text)), "a control character left by escapingControls")
        precondition(
            !LogfmtValue.escapingControls(text, keepingLines: true).unicodeScalars.contains {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
            }, "a control character other than a line feed or tab left")
    }
}
