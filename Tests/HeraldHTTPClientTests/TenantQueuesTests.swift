import Testing
@testable import HeraldHTTPClient

/// The order `TenantQueues` hands out free slots in, and what it counts
/// against the per-origin cap.
@Suite struct TenantQueuesTests {
    private func submission(_ tenant: String, _ path: String, host: String = "push.example:443") -> Submission {
        Submission(
            pending: PendingRequest(id: 0, url: "https://\(host)/\(path)", resumesOnLoop: false),
            request: HTTPClientRequest(url: "https://\(host)/\(path)", tenant: tenant))
    }

    private func path(_ submission: Submission?) -> String? {
        submission.map { String($0.request.url.split(separator: "/").last ?? "") }
    }

    @Test func freeSlotsGoToTheWaitingTenantsInTurnEachWithinItsShare() {
        let queues = TenantQueues(fairness: HTTPClientFairness(tenantWindow: 1, maxQueuedPerOrigin: 10))
        var started: [String: TenantSlot] = [:]
        for (tenant, name) in [("a", "a1"), ("a", "a2"), ("a", "a3"), ("b", "b1"), ("b", "b2"), ("b", "b3")] {
            switch queues.enter(submission(tenant, name), active: started.count, limit: 100) {
            case .start(let admitted): started[name] = admitted.slot
            case .queued: break
            case .refused(let error): Issue.record("refused \(name): \(error)")
            }
        }
        #expect(Set(started.keys) == ["a1", "b1"], "one request each: the share")
        #expect(queues.next(active: 2, limit: 100) == nil, "both tenants are at their share")
        for name in ["a1", "b1"] { if let slot = started[name] { queues.release(slot) } }
        let first = queues.next(active: 0, limit: 100)
        let second = queues.next(active: 1, limit: 100)
        #expect([path(first), path(second)] == ["a2", "b2"], "one of each tenant, in turn")
        #expect(queues.next(active: 2, limit: 100) == nil)
        for slot in [first?.slot, second?.slot] { if let slot { queues.release(slot) } }
        #expect(queues.next(active: 0, limit: 1).map(path) == "a3")
        #expect(queues.next(active: 1, limit: 1) == nil, "the client's window is full")
    }

    @Test func theCapCountsQueuedRequestsPerTenantAndOriginAndFreesWhatLeaves() {
        let queues = TenantQueues(fairness: HTTPClientFairness(tenantWindow: 1, maxQueuedPerOrigin: 2))
        guard case .start(let held) = queues.enter(submission("a", "1"), active: 0, limit: 100),
            case .queued = queues.enter(submission("a", "2"), active: 1, limit: 100)
        else {
            Issue.record("the first starts, the second waits")
            return
        }
        guard case .refused(let error) = queues.enter(submission("a", "3"), active: 1, limit: 100) else {
            Issue.record("the third is over the cap")
            return
        }
        #expect(error.kind == .originQueueFull && error.host == "push.example:443")
        guard case .start = queues.enter(submission("b", "1"), active: 1, limit: 100) else {
            Issue.record("another tenant's request to that origin is not capped")
            return
        }
        guard case .queued = queues.enter(submission("a", "5", host: "other.example:443"), active: 2, limit: 100) else {
            Issue.record("the tenant's request to another origin waits for its share, not refused")
            return
        }
        #expect(queues.remove { _ in true }.count == 2, "the queued ones leave")
        if let slot = held.slot { queues.release(slot) }
        guard case .start = queues.enter(submission("a", "4"), active: 2, limit: 100) else {
            Issue.record("what left no longer counts")
            return
        }
    }
}
