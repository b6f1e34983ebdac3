import HeraldCoreTestSupport
import Testing
@testable import HeraldCore

@Suite("Did you mean")
struct SuggestionThresholdTests {
    @Test(arguments: [
        ("colapse_id", ProviderCatalog.standIns.eventFieldNames, "collapse_id"),
        ("expire_at", ProviderCatalog.standIns.eventFieldNames, "expires_at"),
        ("targets_", ProviderCatalog.standIns.eventFieldNames, "targets"),
        ("pirority", ProviderCatalog.standIns.eventFieldNames, "priority"),
        ("apn", ProviderCatalog.standIns.acceptedNames, "apns"),
        ("APNS", ProviderCatalog.standIns.acceptedNames, "apns"),
        ("andriod", ProviderCatalog.standIns.acceptedNames, "android"),
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
        #expect(Suggestions.closest(to: "zzzzzz", among: ProviderCatalog.standIns.eventFieldNames) == nil)
        #expect(Suggestions.closest(to: "x", among: ["apns", "fcm"]) == nil)
        #expect(
            Suggestions.closest(
                to: String(repeating: "a", count: 100_000), among: ProviderCatalog.standIns.eventFieldNames) == nil)
    }
}
