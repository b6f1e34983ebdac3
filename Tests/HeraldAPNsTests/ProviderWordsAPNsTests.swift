import HeraldAPNs
import HeraldCore
import Testing

/// Apple's reasons reach an outcome as Apple documents them; anything else a
/// server puts in `reason` becomes the status's fallback (`ProviderReason`).
@Suite struct ProviderWordsAPNsTests {
    @Test func everyDocumentedReasonIsKept() {
        for entry in APNsReason.table {
            #expect(ProviderReason.isToken(entry.name), "\(entry.name)")
            let body = Array(#"{"reason":"\#(entry.name)"}"#.utf8)
            let verdict = APNsResponseVerdict(status: entry.status, body: body, apnsID: "id-1")
            switch verdict {
            case .result(let result): #expect(result.reason == entry.name && result.detail == nil)
            case .failure(let failure): #expect(failure.reason == entry.name && failure.detail == nil)
            case .refreshProviderToken(let reason): #expect(reason == entry.reason)
            }
        }
    }

    @Test func anUndocumentedTokenIsKeptAndASentenceOrControlIsNot() {
        let kept = APNsResponseVerdict(status: 400, body: Array(#"{"reason":"BadNewThing"}"#.utf8), apnsID: nil)
        #expect(kept == .result(DeliveryResult(.failed, reason: "BadNewThing", providerStatus: 400)))
        let escape = #"{"reason":"Bad\u001b]0;owned\u0007\u009b2J"}"#
        let cleaned = APNsResponseVerdict(status: 400, body: Array(escape.utf8), apnsID: "a\u{1B}b")
        #expect(
            cleaned
                == .result(DeliveryResult(.failed, reason: "HTTP 400", detail: "Bad ]0;owned  2J", providerStatus: 400))
        )
        let transient = APNsResponseVerdict(
            status: 503, body: Array(#"{"reason":"try again later"}"#.utf8), apnsID: nil)
        #expect(
            transient == .failure(DeliveryFailure(reason: "HTTP 503", detail: "try again later", providerStatus: 503)))
    }
}
