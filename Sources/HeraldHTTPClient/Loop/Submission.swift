/// A request handed from `send` to the loop thread.
struct Submission: Sendable {
    let pending: PendingRequest
    let request: HTTPClientRequest
    /// When the loop thread first took it (monotonic nanoseconds): the timeout
    /// counts from here, time spent waiting for an in-flight slot included
    /// (but not a delay in starting the loop itself).
    var takenAt: UInt64?
    /// Its place in `TenantQueues` (with `HTTPClientFairness`), once counted there.
    var slot: TenantSlot?
}

/// A resolver thread's answer for one of the nghttp2 engine's connections.
struct HostResolution: Sendable {
    let connectionID: UInt64
    let addresses: [H2Address]
    /// Why nothing was found (then `addresses` is empty).
    let error: String?
}
