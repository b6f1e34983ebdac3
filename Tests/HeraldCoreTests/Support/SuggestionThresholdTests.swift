import Testing
@testable import HeraldCore

@Suite("Did you mean")
struct SuggestionThresholdTests {
    @Test(arguments: [
        ("colapse_id", Event.fieldNames, "collapse_id"),
        ("expire_at", Event.fieldNames, "expires_at"),
        ("targets_", Event.fieldNames, "targets"),
        ("pirority", Event.fieldNames, "priority"),
        ("apn", Provider.acceptedNames, "apns"),
        ("APNS", Provider.acceptedNames, "apns"),
        ("andriod", Provider.acceptedNames, "android"),
        ("alrt", PushType.allCases.map(\.rawValue), "alert"),
        ("backgroud", PushType.allCases.map(\.rawValue), "background"),
    ])
    func closeMisspellingsGetASuggestion(word: String, candidates: [String], expected: String) {
        #expect(Suggestions.closest(to: word, among: candidates) == expected)
    }

    @Test func tiesGoToTheEarlierCandidate() {
        #expect(Suggestions.closest(to: "apn", among: ["app", "apns"]) == "app")
    }

    @Test func unrelatedWordsGetNone() {
        #expect(Suggestions.closest(to: "zzzzzz", among: Event.fieldNames) == nil)
        #expect(Suggestions.closest(to: "x", among: ["apns", "fcm"]) == nil)
        #expect(Suggestions.closest(to: String(repeating: "a", count: 100_000), among: Event.fieldNames) == nil)
    }
}
