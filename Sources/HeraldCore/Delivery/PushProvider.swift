/// A push service Herald delivers through (APNs, FCM, Web Push): one small
/// protocol, so a new provider is one new module.
///
/// A definitive answer from the provider — accepted, token dead, notification
/// refused — is a returned `DeliveryResult`. A transient failure worth
/// retrying (429, 5xx, timeout, connection loss) is a thrown `DeliveryFailure`.
/// Callers that hold providers of every kind hold them as ``AnyPushProvider``.
public protocol PushProvider: Sendable {
    /// The provider's own request (an `APNsRequest`, an FCM request body),
    /// built by `prepare` and read by `send` only.
    associatedtype Request: Sendable

    var provider: Provider { get }

    /// Checks what can be checked before any request (payload size, collapse-id
    /// length, a topic target for a provider without topics, ...) and builds the
    /// request once, for `send` to use. A thrown error means this event can never
    /// be delivered to `target` as written.
    func prepare(_ event: Event, for target: Target) throws(DeliveryRejection) -> PreparedNotification<Request>

    /// Sends what `prepare` built; `attempt` is 1 for the first delivery.
    func send(_ notification: PreparedNotification<Request>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
}

extension PushProvider {
    /// `prepare`, for callers that only want the checks.
    public func validate(_ event: Event, for target: Target) throws(DeliveryRejection) {
        _ = try prepare(event, for: target)
    }

    /// `prepare` then `send`; an event that cannot be sent as written is a `failed` result.
    public func deliver(_ event: Event, to target: Target, attempt: Int) async throws(DeliveryFailure) -> DeliveryResult
    {
        let sent: SentNotification
        do {
            sent = try await prepareAndSend(event, to: target, attempt: attempt) { _, _ in nil }
        } catch {
            return DeliveryResult(.failed, reason: error.reason)
        }
        return try sent.answer.get()
    }

    /// The one prepare-then-send: prepares `event` for `target` once, then
    /// sends it; after a failure, `again` gives the attempt to send it again
    /// as (after waiting, if it waits), or nil to stop. A rejection is thrown
    /// before anything is sent.
    public func prepareAndSend(
        _ event: Event, to target: Target, attempt: Int, trace: DeliveryTraceRecorder? = nil,
        again: (_ failure: DeliveryFailure, _ attempt: Int) async -> Int?
    ) async throws(DeliveryRejection) -> SentNotification {
        var notification = try prepare(event, for: target)
        notification.trace = trace
        var attempt = attempt
        while true {
            do throws(DeliveryFailure) {
                let result = try await send(notification, attempt: attempt)
                return SentNotification(answer: .success(result), attempt: attempt)
            } catch {
                guard let next = await again(error, attempt) else {
                    return SentNotification(answer: .failure(error), attempt: attempt)
                }
                attempt = next
            }
        }
    }
}

/// What ``PushProvider/prepareAndSend(_:to:attempt:trace:again:)`` came to:
/// the provider's last answer and the attempt that got it.
public struct SentNotification: Sendable {
    public var answer: Result<DeliveryResult, DeliveryFailure>
    public var attempt: Int
}

/// An event checked and turned into one provider's request for one target:
/// built once by `PushProvider.prepare`, then sent (and sent again after a
/// credential refresh) without being built again.
public struct PreparedNotification<Request: Sendable>: Sendable {
    public let event: Event
    public let target: Target
    /// The provider's own request; only the provider that prepared it reads it.
    public let request: Request
    /// Set by the pipeline only for a target whose event asked for a debug
    /// trace: the provider records each request it sends and its answer here.
    public var trace: DeliveryTraceRecorder?

    public init(event: Event, target: Target, request: Request) {
        self.event = event
        self.target = target
        self.request = request
    }
}

/// Any provider, its request type hidden: what the service and `herald send`
/// hold for every app's provider, built once where providers are set up
/// (`AppProvider`). Its prepared request carries the provider's own, typed,
/// and sends it through the provider that prepared it, so no caller or
/// provider ever casts a request back.
public struct AnyPushProvider: PushProvider {
    /// A provider's prepared request bound to the provider that sends it.
    public struct Request: Sendable {
        fileprivate let send:
            @Sendable (_ trace: DeliveryTraceRecorder?, _ attempt: Int) async throws(DeliveryFailure)
                -> DeliveryResult
    }

    /// The provider itself.
    public let base: any PushProvider

    public init(_ base: some PushProvider) {
        self.base = base
    }

    public var provider: Provider { base.provider }

    public func prepare(_ event: Event, for target: Target) throws(DeliveryRejection) -> PreparedNotification<Request> {
        try Self.prepare(base, event, target)
    }

    public func send(_ notification: PreparedNotification<Request>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
    {
        try await notification.request.send(notification.trace, attempt)
    }

    private static func prepare<P: PushProvider>(_ provider: P, _ event: Event, _ target: Target)
        throws(DeliveryRejection) -> PreparedNotification<Request>
    {
        let typed = try provider.prepare(event, for: target)
        let request = Request { trace, attempt throws(DeliveryFailure) in
            var notification = typed
            notification.trace = trace
            return try await provider.send(notification, attempt: attempt)
        }
        return PreparedNotification(event: event, target: target, request: request)
    }
}

/// The provider's definitive answer about one notification to one target.
public struct DeliveryResult: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Accepted by the provider (APNs 200, FCM 200).
        case delivered
        /// The token will never work again: upstream should delete it.
        case invalidToken(invalidatedAt: Timestamp?)
        /// Refused for good: bad topic, payload too large, credentials rejected after a refresh, ...
        case failed
    }

    public var status: Status
    /// The provider's reason (`Unregistered`, `UNREGISTERED`, `PayloadTooLarge`)
    /// as ``ProviderReason`` kept it, or Herald's own; bounded (``DeliveryReason``).
    public var reason: String?
    /// The provider's own explanation, when it gives one (Google's `error.message`
    /// and field violations), bounded by ``DeliveryDetail/maxBytes``.
    public var detail: String?
    /// The HTTP status the provider answered with.
    public var providerStatus: Int?
    /// `apns-id`, FCM's message name (`projects/p/messages/123`), a Web Push
    /// `Location`: kept only when printable and short (``ProviderMessageID``).
    public var providerMessageID: String?
    /// Time from sending the request to its answer.
    public var latency: Duration?
    /// For `invalidToken`: the answer is also what every token gets when the
    /// app's credentials, environment, topic or project are wrong (APNs
    /// BadDeviceToken, FCM INVALID_ARGUMENT about the token), so the
    /// invalidation guard may hold it back. `false` for answers that only a
    /// dead token gets (APNs 410 Unregistered, FCM UNREGISTERED).
    public var couldBeMisconfiguration: Bool

    public init(
        _ status: Status, reason: String? = nil, detail: String? = nil, providerStatus: Int? = nil,
        providerMessageID: String? = nil, latency: Duration? = nil, couldBeMisconfiguration: Bool = false
    ) {
        self.status = status
        self.reason = reason.map(DeliveryReason.bounded)
        self.detail = DeliveryDetail.bounded(detail)
        self.providerStatus = providerStatus
        self.providerMessageID = ProviderMessageID.bounded(providerMessageID)
        self.latency = latency
        self.couldBeMisconfiguration = couldBeMisconfiguration
    }
}

/// A transient failure: the notification may succeed if sent again later.
public struct DeliveryFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider's reason or a transport description (`TooManyRequests`,
    /// `timeout after 10s`), bounded (``DeliveryReason``).
    public var reason: String
    /// The provider's own explanation, bounded (``DeliveryDetail``).
    public var detail: String?
    public var providerStatus: Int?
    /// The provider asked for this wait (`Retry-After`); the retry delay is at least this.
    public var retryAfter: Duration?
    public var latency: Duration?
    /// The request was written but no answer came: the provider may have
    /// accepted the notification (see ``noAnswer(timedOut:transport:latency:)``).
    public var answerLost: Bool

    /// What this answer asks of later sends (a quota answer): nil for most.
    public var pause: SendPause?

    public init(
        reason: String, detail: String? = nil, providerStatus: Int? = nil, retryAfter: Duration? = nil,
        latency: Duration? = nil, answerLost: Bool = false, pause: SendPause? = nil
    ) {
        self.pause = pause
        self.reason = DeliveryReason.bounded(reason)
        self.detail = DeliveryDetail.bounded(detail)
        self.providerStatus = providerStatus
        self.retryAfter = retryAfter
        self.latency = latency
        self.answerLost = answerLost
    }

    /// A request written to the provider whose answer never came — it timed
    /// out, or the connection went — so the provider may have accepted it:
    /// the one wording every provider uses, with the transport's own error as
    /// the detail.
    public static func noAnswer(timedOut: Bool, transport: String, latency: Duration?) -> DeliveryFailure {
        DeliveryFailure(
            reason: timedOut
                ? "no answer within the timeout; the provider may have accepted it"
                : "no answer before the connection was lost; the provider may have accepted it",
            detail: DeliveryDetail.bounded(transport), latency: latency, answerLost: true)
    }

    public var description: String { providerStatus.map { "\(reason) (HTTP \($0))" } ?? reason }
}

/// An event that cannot be delivered to a target as written (checked before
/// sending): the pipeline reports it without contacting the provider.
/// A provider's quota answer, read by its provider module: the later sends
/// of the app (a project's quota) or of the one device (its message rate)
/// wait, for the answer's `Retry-After` or Herald's default, instead of
/// being sent into the same answer.
public struct SendPause: Sendable, Equatable {
    public enum Scope: String, Sendable {
        /// Every send of the app through this provider.
        case app
        /// The sends to this device (token) only.
        case token
    }

    public var scope: Scope
    /// Why, as the paused sends' reason begins: `this device's FCM message rate exceeded (QUOTA_EXCEEDED)`.
    public var cause: String
    /// The provider as the reason names it: `FCM`.
    public var service: String

    public init(_ scope: Scope, cause: String, service: String) {
        self.scope = scope
        self.cause = cause
        self.service = service
    }
}

public struct DeliveryRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider's own name for the problem where it has one (`PayloadTooLarge`, `BadCollapseId`).
    public var reason: String
    /// What is wrong, for humans: `payload is 4200 bytes, over APNs' 4096-byte limit`.
    public var message: String

    public init(reason: String, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason): \(message)" }
}

/// Called each time a provider renews its credential — an APNs provider token
/// signed, an FCM access token fetched — with whether it worked: the feed of
/// `herald_token_refreshes_total`.
public typealias CredentialRefreshHook = @Sendable (_ succeeded: Bool) -> Void
