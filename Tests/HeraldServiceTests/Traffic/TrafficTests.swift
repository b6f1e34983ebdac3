import HeraldCore
@testable import HeraldService
import HeraldSystem
import HeraldTestSupport
import Testing

@Suite struct TokenBucketTests {
    @Test func aFullBucketLetsTheBurstGoThenHandsOutOneTokenPerIntervalInOrder() async {
        let bucket = TokenBucket(perSecond: 20, burst: 3)
        let served = Locked<[Int: ContinuousClock.Instant]>([:])
        let started = ContinuousClock.now
        let waits = await withTaskGroup(of: Duration.self) { group in
            for index in 0..<9 {
                group.addTask {
                    let waited = await bucket.acquire()
                    served.withLock { $0[index] = ContinuousClock.now }
                    return waited
                }
                // Ask in a known order: the next asker starts once this one has its token or
                // waits in line (a fixed pause between them is no order on a loaded machine).
                _ = await eventually(timeout: .seconds(60), every: .milliseconds(1)) {
                    bucket.waiting + served.withLock { $0.count } > index
                }
            }
            return await group.reduce(into: [Duration]()) { $0.append($1) }
        }
        let took = ContinuousClock.now - started
        #expect(waits.filter { $0 == .zero }.count >= 3, "the burst of 3 went at once: \(waits)")
        #expect(took >= .milliseconds(250), "the other 6 came one per 50 ms: \(took)")
        // First asked, first served: the n-th asker after the burst is never served before its
        // slot, (n - 2) x 50 ms. A token handed out of order would serve a later asker at an
        // earlier one's slot; a loaded machine only makes everyone later, so this cannot fail from load.
        let times = served.withLock { $0 }
        for index in 3..<9 {
            let slot = started + .milliseconds(50 * (index - 2) - 5)
            #expect(times[index].map { $0 >= slot } == true, "asker \(index) was served before its turn")
        }
    }

    @Test func aStallIsFollowedByAtMostTheBurstNotByEveryOverdueSend() async {
        // The pacing task's sleep is held until the test lets it go: a stall, as a loaded
        // machine makes one, of at least 200 ms (20 tokens' worth at 100/s).
        let stall = Gate()
        let bucket = TokenBucket(perSecond: 100, burst: 2) { wait in
            await stall.passed()
            try? await Task.sleep(for: wait)
        }
        // Each grant: how long its asker waited (zero: a token was there) and when it got it.
        let grants = Locked<[(waited: Duration, at: ContinuousClock.Instant)]>([])
        let (stallEnded, grantedBefore) = await withTaskGroup(of: Void.self) {
            group -> (ContinuousClock.Instant, Int) in
            // Ask one at a time until ten wait and the pacing task is held in its sleep. The
            // burst, and any token that refilled before an asker came, go at once; so may a
            // token the pacing task finds on its first pass, before it first sleeps (a loaded
            // machine starts it late). Once it sleeps (`scheduledWait` is set) it hands out
            // nothing, and every asker after that waits.
            var asked = 0
            while asked < 1000, bucket.waiting < 10 || bucket.scheduledWait == nil {
                if bucket.waiting < 10 {
                    asked += 1
                    group.addTask {
                        let waited = await bucket.acquire()
                        grants.withLock { $0.append((waited, .now)) }
                    }
                }
                // Until every asker waits or has noted its token, and a waiter has a held pacing task.
                _ = await eventually(timeout: .seconds(60), every: .milliseconds(1)) {
                    bucket.waiting + grants.withLock { $0.count } >= asked
                        && (bucket.waiting == 0 || bucket.scheduledWait != nil)
                }
            }
            #expect(bucket.waiting == 10, "ten wait for the stalled pacing task")
            let grantedBefore = grants.withLock { $0.count }
            try? await Task.sleep(for: .milliseconds(200))  // the stall itself: its length is the input
            let ended = ContinuousClock.now
            stall.open()
            await group.waitForAll()
            return (ended, grantedBefore)
        }
        // The ten waiting sends are all overdue when the stall ends; the bucket holds at most
        // its burst of 2, so the k-th of them (k >= 2) is served no earlier than (k - 1) x 10 ms
        // after the stall ended. A grant is noted after it happened and load only makes both
        // later, so this cannot fail from load; every overdue send at once would break it at
        // the third.
        let waited = grants.withLock { $0 }.dropFirst(grantedBefore).map(\.at).sorted()
        #expect(waited.count == 10)
        for (k, time) in waited.enumerated() where k >= 2 {
            let slot = stallEnded + .milliseconds(10 * (k - 1) - 1)
            #expect(time >= slot, "waiting send \(k) was served \(time - stallEnded) after the stall, before its slot")
        }
    }

    @Test func tokensRefillWithTimeUpToTheBurst() {
        let start = ContinuousClock.now
        let bucket = TokenBucket(perSecond: 2, burst: 2, now: start)
        #expect(bucket.takeIfAvailable(now: start) && bucket.takeIfAvailable(now: start))
        #expect(!bucket.takeIfAvailable(now: start), "empty")
        #expect(!bucket.takeIfAvailable(now: start + .milliseconds(400)), "0.8 of a token is not one")
        #expect(bucket.takeIfAvailable(now: start + .milliseconds(500)), "one token after half a second at 2/s")
        let later = start + .seconds(60)
        #expect(bucket.takeIfAvailable(now: later) && bucket.takeIfAvailable(now: later))
        #expect(!bucket.takeIfAvailable(now: later), "a quiet minute refills the burst, not 120 tokens")
    }

    @Test func extremeRatesAreClampedIntoTheBoundsAndNeverTrap() {
        for rate in [1e300, .infinity, 1e-300, 0, -5, -.infinity, .nan] {
            let bucket = TokenBucket(perSecond: rate, burst: 1)
            #expect(RateBounds.perSecond.contains(bucket.perSecond), "\(rate) became \(bucket.perSecond)")
            #expect(bucket.takeIfAvailable(), "a full bucket at \(rate)/s has its token")
        }
        #expect(TokenBucket(perSecond: 1e300, burst: 1).perSecond == 1e9)
        #expect(TokenBucket(perSecond: 1e-300, burst: 1).perSecond == 1e-6)
        #expect(TokenBucket(perSecond: .nan, burst: 1).perSecond == 1e-6)
        // The wait for a token saturates instead of trapping, whatever the rate given.
        #expect(TokenBucket.wait(forTokens: 1, perSecond: 1e-300) == TokenBucket.longestWait)
        #expect(TokenBucket.wait(forTokens: 1, perSecond: 0) == TokenBucket.longestWait)
        #expect(TokenBucket.wait(forTokens: 1, perSecond: .infinity) == .zero)
        #expect(TokenBucket.wait(forTokens: 1, perSecond: .nan) == .zero)
        #expect(TokenBucket.wait(forTokens: 0.5, perSecond: 1e-6) == .seconds(500_000))
        #expect(TokenBucket.wait(forTokens: 1, perSecond: 4) == .milliseconds(250))
    }

    @Test func aHugeRateHandsOutTokensAtOnce() async {
        let bucket = TokenBucket(perSecond: 1e300, burst: 1)
        for _ in 0..<100 { _ = await bucket.acquire() }
        #expect(bucket.perSecond == 1e9)
    }

    @Test func aTinyRatePacesTheSecondSendWithoutTrapping() async throws {
        let bucket = TokenBucket(perSecond: 1e-300, burst: 1)
        #expect(await bucket.acquire() == .zero)
        // The second send waits for a token 11.6 days away (the clamped rate): its pacing
        // task computes that wait (at 1e-300/s it overflowed) and sleeps. The waiting task
        // is left behind: it never runs again.
        Task { _ = await bucket.acquire() }
        _ = await eventually(timeout: .seconds(60)) { bucket.scheduledWait != nil }
        #expect(
            bucket.scheduledWait.map { $0 > .seconds(86_400 * 11) && $0 <= .seconds(86_400 * 12) } == true,
            "\(String(describing: bucket.scheduledWait))")
    }
}

@Suite struct ReceivedEventIDsTests {
    @Test func anIDIsADuplicateWithinTheWindowAndForgottenAfter() {
        let received = ReceivedEventIDs(window: .seconds(600))
        let at = Timestamp(seconds: 1_796_032_800)
        #expect(received.claim(key("e-1"), at: at) == nil, "the first event with an id claims it")
        #expect(
            received.claim(key("e-1"), at: at + .seconds(599)) == at,
            "a second within the window is a duplicate of the first")
        #expect(received.claim(key("e-1"), at: at + .seconds(600)) == nil, "the window is over: claimed again")
        #expect(received.claim(key("e-1"), at: at + .seconds(601)) == at + .seconds(600))
        #expect(received.claim(key("e-2"), at: at + .seconds(1201)) == nil)
        #expect(received.count == 1, "claiming forgets ids whose window ended")
    }

    @Test func pastItsCapacityTheOldestIDsAreForgottenFirst() {
        let received = ReceivedEventIDs(window: .seconds(600), capacity: 3)
        let at = Timestamp(seconds: 1_796_032_800)
        for index in 0..<5 { #expect(received.claim(key("e-\(index)"), at: at + .seconds(Int64(index))) == nil) }
        #expect(received.count == 3)
        #expect(received.claim(key("e-4"), at: at + .seconds(10)) == at + .seconds(4))
        #expect(received.claim(key("e-1"), at: at + .seconds(10)) == nil, "forgotten past the capacity")
    }

    @Test func anIDClaimedAgainKeepsItsNewerTime() {
        let received = ReceivedEventIDs(window: .seconds(10), capacity: 10)
        let at = Timestamp(seconds: 1_796_032_800)
        #expect(received.claim(key("e"), at: at) == nil)
        #expect(received.claim(key("e"), at: at + .seconds(10)) == nil)
        #expect(received.claim(key("other"), at: at + .seconds(11)) == nil)
        #expect(
            received.claim(key("e"), at: at + .seconds(12)) == at + .seconds(10),
            "the first claim's expiry does not forget the second")
    }

    @Test func anIDIsClaimedPerApp() {
        let received = ReceivedEventIDs(window: .seconds(600))
        let at = Timestamp(seconds: 1_796_032_800)
        #expect(received.claim(EventKey(app: "chat", id: "e"), at: at) == nil)
        #expect(
            received.claim(EventKey(app: "news", id: "e"), at: at) == nil,
            "another app's event with the id is not a duplicate")
        #expect(received.claim(EventKey(app: nil, id: "e"), at: at) == nil, "nor is one that names no app")
        #expect(received.claim(EventKey(app: "chat", id: "e"), at: at + .seconds(1)) == at)
        #expect(
            received.claim(EventKey(app: "", id: "e"), at: at + .seconds(1)) == at, "no app and an empty app are one")
    }

    /// A key of app `chat`.
    private func key(_ id: String) -> EventKey { EventKey(app: "chat", id: id) }

    @Test func ofManyClaimsOfOneIDAtOnceExactlyOneWins() async {
        let received = ReceivedEventIDs(window: .seconds(600))
        let at = Timestamp(seconds: 1_796_032_800)
        let winners = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 { group.addTask { received.claim(key("same"), at: at) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(winners == 1)
    }
}

/// Holds whoever calls ``passed()`` until ``open()``, then lets everyone by:
/// a stall the test ends itself, with no polling.
private final class Gate: Sendable {
    private let state = Locked<(open: Bool, held: [CheckedContinuation<Void, Never>])>((false, []))

    func passed() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.held.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let held = state.withLock { state in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
