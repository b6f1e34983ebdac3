/// A request handed from `send` to the loop thread.
struct Submission: Sendable {
    let pending: PendingRequest
    let request: HTTPClientRequest
}
