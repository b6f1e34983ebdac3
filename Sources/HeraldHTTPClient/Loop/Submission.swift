/// A request handed from `send` to the loop thread.
struct Submission: Sendable {
    let pending: PendingRequest
    let request: HTTPClientRequest
    /// When the loop thread first took it (monotonic nanoseconds): the timeout
    /// counts from here, time spent waiting for an in-flight slot included
    /// (but not a delay in starting the loop itself).
    var takenAt: UInt64?
}
