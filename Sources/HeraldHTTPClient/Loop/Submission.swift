/// A request handed from `send` to the loop thread.
struct Submission: Sendable {
    let pending: PendingRequest
    let request: HTTPClientRequest
    /// When `send` was called (monotonic nanoseconds): the timeout counts from here,
    /// time spent waiting for an in-flight slot included.
    var submittedAt: UInt64 = CurlMultiLoop.now()
}
