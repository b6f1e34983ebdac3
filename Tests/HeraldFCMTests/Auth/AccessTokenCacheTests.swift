import HeraldCore
import HeraldFCM
import HeraldTestSupport
import Synchronization
import Testing

/// The token cache, driven by a manual clock and a counting fetch: no sleeping, no HTTP.
@Suite struct AccessTokenCacheTests {
    /// Hands out `token-1`, `token-2`, ... valid for `lifetime`, counting calls;
    /// fails the calls listed in `failing`.
    final class Fetcher: Sendable {
        let clock: TestClock
        let lifetime: Duration
        let failing: Set<Int>
        let calls = Atomic<Int>(0)

        init(clock: TestClock, lifetime: Duration = .seconds(3600), failing: Set<Int> = []) {
            self.clock = clock
            self.lifetime = lifetime
            self.failing = failing
        }

        func fetch() async throws(FCMAuthError) -> AccessToken {
            let call = calls.add(1, ordering: .relaxed).newValue
            await Task.yield()
            if failing.contains(call) {
                throw FCMAuthError(
                    reason: "invalid_grant", status: 400, message: "Invalid JWT Signature.", isRetryable: false)
            }
            let now = clock.read()
            return AccessToken(value: "token-\(call)", issuedAt: now, expiresAt: now + lifetime)
        }
    }

    func cache(_ fetcher: Fetcher) -> AccessTokenCache {
        AccessTokenCache(now: fetcher.clock.closure) { () async throws(FCMAuthError) -> AccessToken in
            try await fetcher.fetch()
        }
    }

    @Test func tokenIsReusedUntilFiveMinutesBeforeExpiry() async throws {
        let clock = TestClock()
        let fetcher = Fetcher(clock: clock)
        let cache = cache(fetcher)
        #expect(try await cache.token().value == "token-1")
        clock.advance(by: .seconds(3299))
        #expect(try await cache.token().value == "token-1")
        #expect(fetcher.calls.load(ordering: .relaxed) == 1)
        clock.advance(by: .seconds(1))
        #expect(try await cache.token().value == "token-2")
        #expect(fetcher.calls.load(ordering: .relaxed) == 2)
    }

    @Test func shortLivedTokenIsRefreshedHalfWayThrough() async throws {
        let clock = TestClock()
        let fetcher = Fetcher(clock: clock, lifetime: .seconds(120))
        let cache = cache(fetcher)
        _ = try await cache.token()
        clock.advance(by: .seconds(59))
        #expect(try await cache.token().value == "token-1")
        clock.advance(by: .seconds(1))
        #expect(try await cache.token().value == "token-2")
    }

    @Test func concurrentCallersShareOneRefresh() async throws {
        let clock = TestClock()
        let fetcher = Fetcher(clock: clock)
        let cache = cache(fetcher)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await cache.token().value } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(values == Array(repeating: "token-1", count: 50))
        #expect(fetcher.calls.load(ordering: .relaxed) == 1)
    }

    @Test func evictedTokenIsReplacedButAStaleEvictionIsIgnored() async throws {
        let clock = TestClock()
        let fetcher = Fetcher(clock: clock)
        let cache = cache(fetcher)
        let first = try await cache.token()
        await cache.evict(first)
        let second = try await cache.token()
        #expect(second.value == "token-2")
        await cache.evict(first)  // another sender's late 401 for the old token
        #expect(try await cache.token().value == "token-2")
        #expect(fetcher.calls.load(ordering: .relaxed) == 2)
    }

    @Test func failedRefreshIsReportedAndTheNextCallTriesAgain() async throws {
        let clock = TestClock()
        let fetcher = Fetcher(clock: clock, failing: [1])
        let cache = cache(fetcher)
        await #expect(
            throws: FCMAuthError(
                reason: "invalid_grant", status: 400, message: "Invalid JWT Signature.", isRetryable: false)
        ) {
            try await cache.token()
        }
        #expect(await cache.cached == nil)
        #expect(try await cache.token().value == "token-2")
    }

    @Test func tokenDescriptionMasksTheValue() {
        let token = AccessToken(
            value: "ya29.secret-value", issuedAt: Timestamp(seconds: 0), expiresAt: Timestamp(seconds: 3600))
        #expect(token.description == "access token ya29.sec… expiring 1970-01-01T01:00:00.000Z")
    }
}
