/// How a client shared by several senders divides its window of requests in
/// flight, so that one sender's requests to endpoints that never answer
/// cannot hold every slot and make the others' requests wait until they
/// time out (Herald: the apps sharing the Web Push client, whose endpoints
/// come from browsers and may point anywhere).
///
/// Each request names its sender (`HTTPClientRequest.tenant`). A sender has
/// at most `tenantWindow` requests in flight; its further requests wait in
/// its own queue, and slots that free up go to the waiting senders in turn
/// (round-robin), so the shares, summed, fit the client's
/// `maxInFlightRequests` and a sender always finds its share free of the
/// others' requests. A sender has at most `maxQueuedPerOrigin` requests to
/// one origin (`host:port`) in flight or queued; one more fails at once with
/// `HTTPClientError.Kind.originQueueFull` (retryable, nothing sent) instead of
/// waiting behind requests that may never be answered.
///
/// The libcurl engine only; without it (`HTTPClientConfiguration.fairness`
/// nil) requests wait in one queue, oldest first, with no per-sender cost.
public struct HTTPClientFairness: Sendable, Equatable {
    /// Requests one sender has in flight at most: its share of the window.
    public var tenantWindow: Int
    /// Requests of one sender to one origin in flight or queued at most.
    public var maxQueuedPerOrigin: Int

    public init(tenantWindow: Int, maxQueuedPerOrigin: Int) {
        self.tenantWindow = max(1, tenantWindow)
        self.maxQueuedPerOrigin = max(1, maxQueuedPerOrigin)
    }
}
