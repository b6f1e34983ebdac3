import HeraldCore
import Testing

/// What a provider writes into an answer reaches outcomes, logs and
/// `herald tail` short and without a control character (`ProviderReason`,
/// `DeliveryReason`, `DeliveryDetail`, `ProviderMessageID`).
@Suite struct ProviderWordsTests {
    /// Whether `text` has a C0, DEL or C1 character (C1 as U+0080–U+009F, two bytes in UTF-8).
    static func hasControl(_ text: String?) -> Bool {
        text?.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ?? false
    }

    @Test func aTokenIsKeptAsTheProviderWroteIt() {
        for token in [
            "BadDeviceToken", "UNREGISTERED", "InvalidParameters", "quota_exceeded", "v1.Error:x-y",
            String(repeating: "A", count: ProviderReason.maxBytes),
        ] {
            let (reason, detail) = ProviderReason.reason(token, fallback: "BadRequest", detail: "words")
            #expect(reason == token)
            #expect(detail == "words")
        }
    }

    @Test func escapeSequencesBellAndOSCAreNotAReasonAndLeaveTheDetailClean() {
        let osc = "\u{1B}]0;owned\u{07}"
        let csi = "Bad\u{1B}[2J\u{1B}[31mRequest"
        for said in [osc, csi, "\u{07}", "Bad\u{9B}31m", "Bad\u{85}Request", "Bad Request", ""] {
            let (reason, detail) = ProviderReason.reason(said, fallback: "BadRequest", detail: "the service's words")
            #expect(reason == "BadRequest", "\(said.debugDescription)")
            #expect(!Self.hasControl(detail), "\(String(describing: detail).debugDescription)")
            #expect(detail?.hasSuffix("the service's words") == true, "\(String(describing: detail))")
        }
        let (_, detail) = ProviderReason.reason(csi, fallback: "BadRequest", detail: nil)
        #expect(detail == "Bad [2J [31mRequest")
    }

    @Test func aReasonOverTheBoundFallsBackAndAHugeOneCostsOnlyWhatIsKept() {
        let long = String(repeating: "A", count: ProviderReason.maxBytes + 1)
        #expect(ProviderReason.reason(long, fallback: "Forbidden", detail: nil).reason == "Forbidden")
        // 1 MiB of escape sequences and bells.
        let huge = String(repeating: "\u{1B}]0;x\u{07}\u{9B}", count: (1 << 20) / 8)
        let (reason, detail) = ProviderReason.reason(huge, fallback: "BadRequest", detail: nil)
        #expect(reason == "BadRequest")
        #expect(detail != nil)
        #expect((detail?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
        #expect(!Self.hasControl(detail))
    }

    @Test func invalidUTF8BecomesReplacementCharactersNeverABrokenString() {
        let bytes: [UInt8] = [0x42, 0x61, 0x64, 0xC2, 0xFF, 0xC2, 0x9B, 0x1B, 0x5B, 0x33, 0x31, 0x6D]
        let said = String(decoding: bytes, as: UTF8.self)
        let (reason, detail) = ProviderReason.reason(said, fallback: "BadRequest", detail: nil)
        #expect(reason == "BadRequest")
        #expect(!Self.hasControl(detail))
        #expect(detail?.contains("\u{FFFD}") == true)
    }

    @Test func noReasonIsTheFallback() {
        #expect(ProviderReason.reason(nil, fallback: "HTTP 418", detail: nil) == ("HTTP 418", nil))
    }

    @Test func theDetailHasNoC1EitherAndStaysWithinItsBound() {
        #expect(DeliveryDetail.bounded("a\u{85}b\u{9B}c\u{7F}d") == "a b c d")
        let bounded = DeliveryDetail.bounded(String(repeating: "\u{1B}é", count: 100_000))
        #expect((bounded?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
        #expect(bounded?.hasSuffix("…") == true)
        #expect(!Self.hasControl(bounded))
    }

    /// Herald's own reasons, and the names of the statuses it falls back to,
    /// pass every rule unchanged.
    static let heraldReasons = [
        "WrongProvider", "WrongTarget", "HTTP 502", "HTTP 418", "InvalidHeader", "BadSubscription", "EncryptionFailed",
        "InvalidDataKey", "MessageTooBig", "PayloadTooLarge", "BadTopic", "AssertionSigningFailed",
        "MalformedTokenResponse",
        "TokenEndpointError", "TokenEndpointUnreachable", "BadRequest", "GatewayTimeout", "UnsupportedMediaType",
        DeliveryFailure.noAnswer(timedOut: true, transport: "x", latency: nil).reason,
        DeliveryFailure.noAnswer(timedOut: false, transport: "x", latency: nil).reason,
    ]

    @Test(arguments: heraldReasons)
    func heraldsOwnReasonsPassUnchanged(reason: String) {
        #expect(DeliveryReason.bounded(reason) == reason)
        #expect(DeliveryResult(.failed, reason: reason).reason == reason)
        #expect(DeliveryFailure(reason: reason).reason == reason)
        if !reason.contains(" ") { #expect(ProviderReason.reason(reason, fallback: "x", detail: nil) == (reason, nil)) }
    }

    @Test func everyResultAndFailureIsBoundedWhoeverBuiltIt() {
        let huge = "OAuth " + String(repeating: "\u{1B}[31mx", count: 300_000)
        let result = DeliveryResult(.failed, reason: huge, detail: huge, providerMessageID: huge)
        #expect((result.reason?.utf8.count ?? 0) <= DeliveryReason.maxBytes)
        #expect(!Self.hasControl(result.reason))
        #expect((result.detail?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
        #expect(result.providerMessageID == nil)
        let failure = DeliveryFailure(reason: huge, detail: huge)
        #expect(failure.reason.utf8.count <= DeliveryReason.maxBytes && !Self.hasControl(failure.reason))
        #expect((failure.detail?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
    }

    @Test func aMessageIDIsKeptOnlyWhenPrintableAndShort() {
        for id in [
            "1b2e-4c", "projects/p/messages/0:1500415314455276%31bd1c9631bd1c96",
            "https://push.example.net/m/gAAAAABh" + String(repeating: "x", count: 300),
        ] {
            #expect(ProviderMessageID.bounded(id) == id)
            #expect(DeliveryResult(.delivered, providerMessageID: id).providerMessageID == id)
        }
        for id in [
            "", "a b", "id\u{1B}]0;x\u{07}", "id\u{9B}", "é",
            String(repeating: "x", count: ProviderMessageID.maxBytes + 1),
        ] {
            #expect(ProviderMessageID.bounded(id) == nil, "\(id.debugDescription)")
        }
    }

    @Test func theLogfmtRuleQuotesAndEscapesEveryControlCharacter() {
        #expect(LogfmtValue.rendered("plain") == "plain")
        #expect(LogfmtValue.rendered("two words") == "\"two words\"")
        let escaped = LogfmtValue.rendered("a\u{1B}]0;x\u{07}b\u{9B}c\u{7F}")
        #expect(!Self.hasControl(escaped))
        #expect(escaped.lowercased() == #""a\u001b]0;x\u0007b\u009bc\u007f""#)
        #expect(LogfmtValue.escapingControls("{\"a\":\"\u{9B}\"}\n") == #"{"a":"\u009B"}\u000A"#)
    }
}
