/// Where a submission is counted in `TenantQueues`: its tenant, its origin,
/// and whether it holds one of the tenant's in-flight slots yet.
struct TenantSlot: Sendable {
    let tenant: Int
    let origin: String
    var inFlight: Bool
}

/// The waiting side of `WaitingRoom` under `HTTPClientFairness`: a queue per
/// tenant, its requests in flight, and its requests per origin.
///
/// A tenant's request starts at once when the tenant is under its share and
/// has nothing queued; otherwise it waits in the tenant's queue, and free
/// slots go to the tenants in turn. Counts are released when a request
/// leaves (answered, failed, cancelled, expired) through `release`.
/// Loop thread only (a class, so the `WaitingRoom` holding it changes it in
/// place). Tenants are the few senders of one client (Herald's apps), so a
/// turn looks at each of them at most once.
final class TenantQueues {
    private struct Tenant {
        var inFlight = 0
        var queue: [Submission] = []
        var head = 0
        var perOrigin: [String: Int] = [:]

        var hasQueued: Bool { head < queue.count }

        mutating func pop() -> Submission? {
            guard head < queue.count else { return nil }
            head += 1
            let next = queue[head - 1]
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return next
        }
    }

    /// What became of a submission the loop took for the first time.
    enum Entry {
        /// It holds an in-flight slot of its tenant: start it.
        case start(Submission)
        /// It waits in its tenant's queue.
        case queued
        /// Over the per-origin cap: fail it, nothing sent.
        case refused(HTTPClientError)
    }

    let fairness: HTTPClientFairness
    private var tenants: [Tenant] = []
    private var indexByName: [String: Int] = [:]
    /// The tenant whose turn comes first when a slot frees.
    private var turn = 0
    /// Submissions queued over all tenants.
    private(set) var queuedCount = 0

    init(fairness: HTTPClientFairness) {
        self.fairness = fairness
    }

    /// Counts a submission the loop took for the first time against its
    /// tenant and origin; it starts if its tenant may send now.
    func enter(_ submission: Submission, active: Int, limit: Int) -> Entry {
        let tenant = index(of: submission.request.tenant)
        let origin = URLHost.hostAndPort(of: submission.request.url)
        let held = tenants[tenant].perOrigin[origin, default: 0]
        guard held < fairness.maxQueuedPerOrigin else {
            return .refused(.originQueueFull(host: origin, limit: fairness.maxQueuedPerOrigin))
        }
        tenants[tenant].perOrigin[origin] = held + 1
        var counted = submission
        let startsNow = !tenants[tenant].hasQueued && tenants[tenant].inFlight < fairness.tenantWindow && active < limit
        counted.slot = TenantSlot(tenant: tenant, origin: origin, inFlight: startsNow)
        guard startsNow else {
            tenants[tenant].queue.append(counted)
            queuedCount += 1
            return .queued
        }
        tenants[tenant].inFlight += 1
        return .start(counted)
    }

    /// The next queued submission of the first tenant in turn that is under
    /// its share, now holding an in-flight slot; nil when none may start.
    func next(active: Int, limit: Int) -> Submission? {
        guard queuedCount > 0, active < limit else { return nil }
        for step in 0..<tenants.count {
            let tenant = (turn + step) % tenants.count
            guard tenants[tenant].inFlight < fairness.tenantWindow, var next = tenants[tenant].pop() else { continue }
            queuedCount -= 1
            tenants[tenant].inFlight += 1
            next.slot?.inFlight = true
            turn = (tenant + 1) % tenants.count
            return next
        }
        return nil
    }

    /// A counted submission left: frees its origin count and, if it held
    /// one, its tenant's in-flight slot.
    func release(_ slot: TenantSlot) {
        if slot.inFlight { tenants[slot.tenant].inFlight -= 1 }
        let left = tenants[slot.tenant].perOrigin[slot.origin, default: 1] - 1
        tenants[slot.tenant].perOrigin[slot.origin] = left > 0 ? left : nil
    }

    /// Takes out of the queues (and releases) the submissions `leaves` picks.
    func remove(where leaves: (Submission) -> Bool) -> [Submission] {
        guard queuedCount > 0 else { return [] }
        var removed: [Submission] = []
        for tenant in tenants.indices where tenants[tenant].hasQueued {
            var kept: [Submission] = []
            for submission in tenants[tenant].queue[tenants[tenant].head...] {
                if leaves(submission) {
                    removed.append(submission)
                } else {
                    kept.append(submission)
                }
            }
            tenants[tenant].queue = kept
            tenants[tenant].head = 0
        }
        queuedCount -= removed.count
        for submission in removed {
            if let slot = submission.slot { release(slot) }
        }
        return removed
    }

    /// Everything still queued (the loop is stopping).
    func drain() -> [Submission] {
        remove { _ in true }
    }

    private func index(of name: String) -> Int {
        if let index = indexByName[name] { return index }
        tenants.append(Tenant())
        indexByName[name] = tenants.count - 1
        return tenants.count - 1
    }
}
