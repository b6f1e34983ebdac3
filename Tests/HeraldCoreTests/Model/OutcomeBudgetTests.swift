import HeraldCore
import Testing

/// One budget for the bytes an event's outcomes carry: context first (at
/// decoding), then the providers' words as each outcome is built.
@Suite struct OutcomeBudgetTests {
    func outcome(detail: String?, messageID: String?) -> Outcome {
        var outcome = Outcome(
            status: .failed, eventID: "e", reason: "BadRequest", at: Timestamp(seconds: 1_700_000_000))
        outcome.detail = detail
        outcome.providerMessageID = messageID
        return outcome
    }

    @Test func outcomesWithinTheBudgetKeepEverything() {
        var budget = OutcomeBudget(limit: 10_000, context: ["user": "u-1"], outcomes: 3)
        var kept = outcome(detail: String(repeating: "d", count: 512), messageID: "id-1")
        budget.charge(&kept)
        #expect(kept.detail?.count == 512 && kept.providerMessageID == "id-1")
        #expect(budget.spent == 3 * #"{"user":"u-1"}"#.utf8.count + "BadRequest".utf8.count + 512 + 4)
    }

    @Test func overTheBudgetTheDetailGoesFirstThenTheMessageIDAndTheReasonStays() {
        let detail = String(repeating: "d", count: 500)
        // 100 bytes of context in each of the 4 outcomes, charged first.
        var budget = OutcomeBudget(
            limit: 1_200, context: ["k": .string(String(repeating: "c", count: 92))], outcomes: 4)
        #expect(budget.spent == 400)
        var outcomes = (0..<4).map { _ in outcome(detail: detail, messageID: String(repeating: "m", count: 100)) }
        for index in outcomes.indices { budget.charge(&outcomes[index]) }
        // Words of 610 bytes each: the first fit whole (190 left); the second has room
        // for its reason and id, not its detail (80 left); the others for their reasons only.
        #expect(outcomes[0].detail == detail && outcomes[0].providerMessageID != nil)
        #expect(outcomes[1].detail == nil && outcomes[1].providerMessageID != nil)
        #expect(outcomes[2].detail == nil && outcomes[2].providerMessageID == nil)
        #expect(outcomes[3].detail == nil && outcomes[3].providerMessageID == nil)
        #expect(budget.spent == 400 + 610 + 110 + 10 + 10)
        #expect(outcomes.allSatisfy { $0.reason == "BadRequest" })
    }

    @Test func contextCopiesAreCountedWithoutOverflow() {
        #expect(OutcomeBudget.contextBytes(size: 4096, outcomes: 2048) == 8 << 20)
        #expect(OutcomeBudget.contextBytes(size: .max, outcomes: 2) == .max, "saturates")
    }
}
