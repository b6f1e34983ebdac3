import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldTestSupport
import Testing

@testable import HeraldService

/// The duplicate window over a registry database: claims batched, each
/// answered as its own, and a database that is gone never holds events back.
@Suite struct DuplicateWindowTests {
    /// Two windows (two instances) on one database, 400 claims of 100 ids at once: each id is new exactly once.
    @Test(arguments: Backend.allCases) func manyClaimsAtOnceFromTwoInstancesWinEachIDOnce(_ backend: Backend)
        async throws
    {
        try await TestDatabase.with(backend) { database async throws in
            let stores = try (0..<2).map { _ in try database.makeStore() }
            defer { stores.forEach { $0.close() } }
            _ = try await stores[0].migrate()
            let logger = Logger(label: "test", sink: MemoryLogSink())
            let windows = stores.map {
                DuplicateWindow(window: .seconds(600), shared: $0, logger: logger, clock: { Timestamp.now() })
            }
            let firsts = await withTaskGroup(of: String?.self) { group in
                for i in 0..<400 {
                    group.addTask {
                        await windows[i % 2].claim(EventKey(app: "chat", id: "evt-\(i / 4)"), at: Timestamp.now())
                            == nil ? "evt-\(i / 4)" : nil
                    }
                }
                return await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(firsts.count == 100 && Set(firsts).count == 100, "\(firsts.count) firsts")
            // A third instance, started later, knows them all from the database.
            let later = DuplicateWindow(
                window: .seconds(600), shared: stores[1], logger: logger, clock: { Timestamp.now() })
            #expect(await later.claim(EventKey(app: "chat", id: "evt-42"), at: Timestamp.now()) != nil)
            #expect(
                await later.claim(EventKey(app: "news", id: "evt-42"), at: Timestamp.now()) == nil,
                "another app's id is its own")
        }
    }

    @Test func aDatabaseThatCannotBeReachedLetsEventsThroughAndWarnsOnce() async throws {
        let store = try SQLRegistryStore(
            .postgres(url: "postgres://herald:herald@127.0.0.1:1/nowhere?connect_timeout=1", poolSize: 1),
            providers: .registered)
        defer { store.close() }
        let sink = MemoryLogSink()
        let window = DuplicateWindow(
            window: .seconds(600), shared: store, logger: Logger(label: "test", sink: sink),
            clock: { Timestamp.now() })
        #expect(await window.claim(EventKey(app: "chat", id: "a"), at: Timestamp.now()) == nil)
        #expect(await window.claim(EventKey(app: "chat", id: "b"), at: Timestamp.now()) == nil)
        #expect(
            await window.claim(EventKey(app: "chat", id: "a"), at: Timestamp.now()) != nil,
            "the instance's own memory still catches its duplicates")
        let warnings = sink.lines.filter { $0.contains("the duplicate window's registry database cannot be reached") }
        #expect(warnings.count == 1, "\(sink.lines)")
    }

    /// A server that takes the connection and never answers: after
    /// `claimTimeout` the claims count as new, the late answer is dropped.
    @Test func aDatabaseThatDoesNotAnswerHoldsEventsBackOnlyForTheClaimTimeout() async throws {
        let listener = try #require(LoopbackListener())
        defer { listener.close() }
        let port = listener.port
        let store = try SQLRegistryStore(
            .postgres(url: "postgres://herald:herald@127.0.0.1:\(port)/silent?connect_timeout=120", poolSize: 1),
            providers: .registered)
        defer { store.close() }
        let sink = MemoryLogSink()
        let window = DuplicateWindow(
            window: .seconds(600), shared: store, logger: Logger(label: "test", sink: sink),
            clock: { Timestamp.now() })
        let started = ContinuousClock.now
        #expect(await window.claim(EventKey(app: "chat", id: "a"), at: Timestamp.now()) == nil)
        let waited = ContinuousClock.now - started
        // Well under the connect timeout: the claim timeout ended the wait (on a
        // machine busy with other suites its timer may run some seconds late).
        #expect(waited >= DuplicateWindow.claimTimeout && waited < .seconds(60), "\(waited)")
        #expect(
            sink.lines.contains {
                $0.contains("did not answer in time") && $0.contains("no answer within 2.0 seconds")
            },
            "\(sink.lines)")
    }
}
