import HeraldCore
import Testing

@Suite struct SuggestionsTests {
    @Test func nearTyposAreSuggested() {
        #expect(Suggestions.closest(to: "prefech", among: ["url", "prefetch"]) == "prefetch")
        #expect(Suggestions.closest(to: "Prefetch", among: ["prefetch"]) == "prefetch")
        #expect(Suggestions.closest(to: "ulr", among: ["url", "queue"]) == "url")  // swapped letters are one edit
        #expect(Suggestions.closest(to: "routing_kye", among: ["routing_key", "headers"]) == "routing_key")
        #expect(
            Suggestions.closest(to: "service_acount_file", among: ["service_account_json", "service_account_file"])
                == "service_account_file")
    }

    @Test func farWordsAreNot() {
        #expect(Suggestions.closest(to: "hms", among: ["apns", "fcm", "ios", "android"]) == nil)
        #expect(Suggestions.closest(to: "ab", among: ["cd"]) == nil)
        #expect(Suggestions.closest(to: "colour", among: ["url", "queue"]) == nil)
        #expect(Suggestions.closest(to: "x", among: [String]()) == nil)
    }

    @Test func hintFallsBackToTheList() {
        #expect(
            Suggestions.hint(for: "prod", among: ["production", "sandbox"]) == " (expected one of: production, sandbox)"
        )
        #expect(Suggestions.hint(for: "sandbx", among: ["production", "sandbox"]) == " (did you mean 'sandbox'?)")
        #expect(Suggestions.didYouMean("zzz", among: ["a"]) == "")
    }

    @Test func distanceCountsEdits() {
        #expect(Suggestions.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestions.distance(Array("ab"), Array("ba")) == 1)
        #expect(Suggestions.distance(Array(""), Array("abc")) == 3)
        #expect(Suggestions.distance(Array("same"), Array("same")) == 0)
    }
}
