/// How the simulated Web Push push service answers what it makes up itself:
/// the `Retry-After` of an injected 429 or 503. It exists, like
/// `FCMSimulatorSettings`, so a running service can be changed (`update`).
public struct WebPushSimulatorSettings: Sendable, Equatable {
    /// The `Retry-After` (seconds) of injected 429 and 503 answers; nil sends none.
    public var retryAfter: Int?

    public init(retryAfter: Int? = 10) {
        self.retryAfter = retryAfter
    }
}
