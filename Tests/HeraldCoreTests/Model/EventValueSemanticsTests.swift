import Testing
@testable import HeraldCore

/// `Event` shares its members between copies (copy-on-write); these pin that it
/// still behaves as a plain value.
@Suite struct EventValueSemanticsTests {
    private func original() -> Event {
        Event(
            id: "e1", app: "chat", targets: [Target(provider: .apns, address: .token("aa"))],
            notification: .init(title: "T", body: "B"), collapseID: "c1", excludeTokens: ["bb"])
    }

    @Test func changingACopyLeavesTheOriginalAlone() {
        let first = original()
        var second = first
        second.app = "billing"
        second.targets.append(Target(provider: .fcm, address: .token("cc")))
        second.notification?.title = "changed"
        second.excludeTokens.insert("dd")
        #expect(first.app == "chat")
        #expect(first.targets.count == 1)
        #expect(first.notification?.title == "T")
        #expect(first.excludeTokens == ["bb"])
        #expect(second.app == "billing" && second.targets.count == 2 && second.notification?.title == "changed")
    }

    @Test func equalityAndHashingFollowTheMembersNotTheStorage() {
        let first = original()
        var second = original()
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
        second.collapseID = "c2"
        #expect(first != second)
        second.collapseID = "c1"
        #expect(first == second)
    }
}
