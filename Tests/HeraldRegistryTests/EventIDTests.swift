import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// claimEvents / forgetEvents: the duplicate window kept in the registry
/// database, shared by instances and kept across restarts.
@Suite struct EventIDTests {
    private let start = Timestamp(seconds: 1_796_032_800, nanoseconds: 123_456_000)

    /// The first claim wins; within the window a second gets the first's time; after it, a claim wins again.
    @Test(arguments: Backend.allCases) func anEventIDIsClaimedOnceWithinTheWindow(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store async throws in
            #expect(try await store.claim("evt-1", at: start, since: start + .seconds(-600)) == nil)
            let later = start + .seconds(599)
            #expect(
                try await store.claim("evt-1", at: later, since: later + .seconds(-600)) == start,
                "the first time comes back, to the microsecond")
            #expect(try await store.claim("evt-2", at: later, since: later + .seconds(-600)) == nil, "ids are apart")
            let after = start + .seconds(601)
            #expect(
                try await store.claim("evt-1", at: after, since: after + .seconds(-600)) == nil, "the window is over")
            #expect(try await store.claim("evt-1", at: after + .seconds(1), since: after + .seconds(-599)) == after)
        }
    }

    @Test(arguments: Backend.allCases) func aNewStoreOnTheSameDatabaseKnowsTheClaims(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database async throws in
            let first = try database.makeStore()
            _ = try await first.migrate()
            #expect(try await first.claim("evt-restart", at: start, since: start + .seconds(-600)) == nil)
            first.close()
            let second = try database.makeStore()
            defer { second.close() }
            let later = start + .seconds(5)
            #expect(try await second.claim("evt-restart", at: later, since: later + .seconds(-600)) == start)
        }
    }

    /// Two stores (two instances) claiming the same ids at once: each id is won exactly once.
    @Test(arguments: Backend.allCases) func twoStoresClaimingAtOnceWinEachIDOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database async throws in
            let stores = try (0..<2).map { _ in try database.makeStore(poolSize: 4) }
            defer { stores.forEach { $0.close() } }
            _ = try await stores[0].migrate()
            let start = start
            let wins = try await withThrowingTaskGroup(of: String?.self) { group in
                for i in 0..<400 {
                    group.addTask {
                        let id = "evt-\(i / 4)"
                        let claim = try await stores[i % 2].claim(id, at: start, since: start + .seconds(-600))
                        return claim == nil ? id : nil
                    }
                }
                return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(wins.count == 100)
            #expect(Set(wins).count == 100, "no id was won twice")
        }
    }

    @Test(arguments: Backend.allCases) func forgetEventsDeletesOnlyTheExpired(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store async throws in
            _ = try await store.claim("old", at: start, since: start + .seconds(-600))
            _ = try await store.claim("new", at: start + .seconds(300), since: start)
            try await store.forgetEvents(before: start + .seconds(1))
            // "old" is gone: claimed again even with a window reaching back before it.
            let now = start + .seconds(301)
            #expect(try await store.claim("old", at: now, since: start + .seconds(-600)) == nil)
            #expect(try await store.claim("new", at: now, since: start + .seconds(-600)) == start + .seconds(300))
        }
    }

    /// Keys are an app and an id: another app's event with a claimed id is
    /// not a duplicate, nor is one that names no app; each is claimed once.
    @Test(arguments: Backend.allCases) func anIDIsClaimedPerApp(_ backend: Backend) async throws {
        try await TestDatabase.withStore(backend) { store async throws in
            let since = start + .seconds(-600)
            #expect(try await store.claim("evt-1", app: "chat", at: start, since: since) == nil)
            let later = start + .seconds(5)
            let answers = try await store.claimEvents(
                [
                    EventKey(app: "news", id: "evt-1"), EventKey(app: nil, id: "evt-1"),
                    EventKey(app: "chat", id: "evt-1"),
                    EventKey(app: "news", id: "evt-1"),
                ], at: later, since: later + .seconds(-600))
            #expect(
                answers == [nil, nil, start, later], "news and no app claim evt-1 for themselves; chat's stays chat's")
            #expect(try await store.claim("evt-1", app: "news", at: later + .seconds(1), since: since) == later)
        }
    }

    /// One call claims many ids in one statement; an id twice in it is a duplicate of its first.
    @Test(arguments: Backend.allCases) func aBatchClaimsEachNewIDAndAnswersEachInOrder(_ backend: Backend) async throws
    {
        try await TestDatabase.withStore(backend) { store async throws in
            #expect(try await store.claim("known", at: start, since: start + .seconds(-600)) == nil)
            let now = start + .seconds(10)
            let answers = try await store.claimEvents(
                chat(["b-new", "known", "a-new", "b-new", "ünï-✓", #"q"uote\"#]),
                at: now, since: now + .seconds(-600))
            #expect(answers == [nil, start, nil, now, nil, nil])
            #expect(try await store.claimEvents([], at: now, since: now) == [])
            let again = try await store.claimEvents(
                chat(["a-new", "ünï-✓", #"q"uote\"#]), at: now + .seconds(1), since: now + .seconds(-599))
            #expect(again == [now, now, now], "ids outside ASCII and with JSON's special characters are kept as given")
        }
    }

    @Test(arguments: Backend.allCases) func anEventIDTheDatabaseCannotHoldIsRefusedWithTheReason(_ backend: Backend)
        async throws
    {
        try await TestDatabase.withStore(backend) { store async throws in
            let empty = await registryError { () throws(RegistryError) in
                _ = try await store.claimEvents(chat(["ok", ""]), at: start, since: start)
            }
            #expect(
                empty?.kind == .invalidInput && empty?.message == "event id is empty", "\(String(describing: empty))")
            let nul = await registryError { () throws(RegistryError) in
                _ = try await store.claimEvents(chat(["a\u{0}b"]), at: start, since: start)
            }
            #expect(
                nul?.message == "event id has a NUL character, which the database cannot store",
                "\(String(describing: nul))")
            let app = await registryError { () throws(RegistryError) in
                _ = try await store.claimEvents([EventKey(app: "c\u{0}", id: "ok")], at: start, since: start)
            }
            #expect(
                app?.message == "event app has a NUL character, which the database cannot store",
                "\(String(describing: app))")
        }
    }
}

extension RegistryStore {
    /// Claims one id (of app `chat` unless another is given).
    fileprivate func claim(_ id: String, app: String = "chat", at time: Timestamp, since: Timestamp) async throws
        -> Timestamp?
    {
        try await claimEvents([EventKey(app: app, id: id)], at: time, since: since).first ?? nil
    }
}

/// The ids as keys of app `chat`.
private func chat(_ ids: [String]) -> [EventKey] { ids.map { EventKey(app: "chat", id: $0) } }
