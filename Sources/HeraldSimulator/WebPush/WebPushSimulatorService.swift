import HeraldCore
import HeraldCrypto
import HeraldSystem
import HeraldWebPush

/// A Web Push push service (RFC 8030 §5), simulated: it issues
/// subscriptions the way a browser's push service does, accepts
/// `POST /push/<subscription id>` the way a push service does (TTL,
/// Urgency, Topic, `aes128gcm` bodies, VAPID), and decrypts every accepted
/// message with the subscription's private key and auth secret, so what it
/// records is the plaintext: a test proves the sender encrypted for the
/// right browser, end to end.
///
/// Checks run in this order: method, subscription (404 for an id never
/// issued, 410 for a deleted one), VAPID authorization (401 absent, 403 not
/// verifying with `VAPIDAuthorization` against the subscription's origin
/// and, for a restricted subscription, its application server key), TTL,
/// Urgency, Topic (400), body size (413), content coding (415), decryption
/// (400). docs/webpush.md, "The simulator's push service", has the table.
///
/// The service learns its origin (`https://host:port`, the `aud` senders
/// sign for) when the server is listening: `serve(at:)`. Subscriptions are
/// issued from then on and keep the origin they were issued with.
public final class WebPushSimulatorService: SimulatorService {
    public let name = "webpush"
    /// Where push resources live: `/push/<subscription id>`.
    public static let pushPathPrefix = "/push/"
    /// Where the `Location` of an accepted message points: `/message/<id>`
    /// (the simulator delivers at once, so nothing is served there).
    public static let messagePathPrefix = "/message/"

    /// Subscriptions a service issues at most, unless told otherwise: each
    /// costs a key pair and stays (a deleted one is answered 410), so a test
    /// that issues in a loop cannot grow the simulator without bound.
    public static let defaultMaxSubscriptions = 10_000

    /// Subscriptions this service issues at most, deleted ones included.
    public let maxSubscriptions: Int
    private let recorder: NotificationRecorder
    private let state: Locked<State>

    private struct State {
        var settings: WebPushSimulatorSettings
        var origin: String?
        /// Every id ever issued: a deleted one stays, so it is answered 410, not 404.
        var subscriptions: [String: Issued] = [:]
    }

    /// A subscription id the service issued, and whether it still stands.
    enum Issued: Sendable {
        case live(SimulatedWebPushSubscription)
        /// Deleted (the browser unsubscribed): messages to it are answered 410 Gone.
        case deleted
    }

    /// - Parameter origin: `https://host:port` when known before the server
    ///   listens; else give it with `serve(at:)`.
    public init(
        settings: WebPushSimulatorSettings = WebPushSimulatorSettings(), recorder: NotificationRecorder,
        origin: String? = nil,
        maxSubscriptions: Int = WebPushSimulatorService.defaultMaxSubscriptions
    ) {
        state = Locked(State(settings: settings, origin: origin))
        self.recorder = recorder
        self.maxSubscriptions = maxSubscriptions
    }

    public var settings: WebPushSimulatorSettings { state.withLock { $0.settings } }

    /// Changes the behaviour while serving.
    public func update(_ change: (inout WebPushSimulatorSettings) -> Void) {
        state.withLock { change(&$0.settings) }
    }

    /// The origin subscriptions are issued at, once known.
    public var origin: String? { state.withLock { $0.origin } }

    /// Sets the origin (`https://host:port`) new subscriptions' endpoints
    /// start with: the simulator's address once its server is listening.
    public func serve(at origin: String) {
        state.withLock { $0.origin = origin }
    }

    /// A new subscription at the service's origin, restricted to
    /// `applicationServerKey` (a 65-byte P-256 point) when given; refused
    /// once `maxSubscriptions` were issued.
    public func issueSubscription(applicationServerKey: [UInt8]? = nil) throws(WebPushSimulatorError)
        -> SimulatedWebPushSubscription
    {
        guard let origin else { throw .originUnknown }
        guard state.withLock({ $0.subscriptions.count }) < maxSubscriptions else {
            throw .tooManySubscriptions(maxSubscriptions)
        }
        let issued = try SimulatedWebPushSubscription.issue(origin: origin, applicationServerKey: applicationServerKey)
        let stored = state.withLock { state in
            guard state.subscriptions.count < maxSubscriptions else { return false }
            state.subscriptions[issued.id] = .live(issued)
            return true
        }
        guard stored else { throw .tooManySubscriptions(maxSubscriptions) }
        return issued
    }

    /// Deletes subscription `id`, as a browser unsubscribing does: messages
    /// to it are answered 410 Gone from then on. Returns false for an id
    /// that was never issued.
    @discardableResult
    public func deleteSubscription(_ id: String) -> Bool {
        state.withLock { state in
            guard state.subscriptions[id] != nil else { return false }
            state.subscriptions[id] = .deleted
            return true
        }
    }

    /// What the service knows of `id`: nil when it never issued it.
    func lookUp(_ id: String) -> Issued? {
        state.withLock { $0.subscriptions[id] }
    }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path.hasPrefix(Self.pushPathPrefix)
    }

    /// The subscription id of the path (the record's target and token, what
    /// per-token faults name) and the `Topic` header.
    public func addressee(of request: SimulatedRequest) -> SimulatedAddressee? {
        guard let id = Self.subscriptionID(inPath: request.path) else { return nil }
        return Self.addressee(subscriptionID: id, topic: request.header("topic"))
    }

    /// A message's addressee, for a request and for its record alike.
    static func addressee(subscriptionID: String, topic: String?) -> SimulatedAddressee {
        SimulatedAddressee(target: subscriptionID, token: subscriptionID, topic: topic)
    }

    public func reason(ofErrorBody body: [UInt8]) -> String? {
        WebPushSimulatorRejection.reason(in: body)
    }

    /// The RFC 8030 headers of a push request (`ttl`, `urgency`, `topic`) and its `content-encoding`.
    public func recordedHeaders(of request: SimulatedRequest) -> [String: String] {
        var headers: [String: String] = [:]
        for name in Self.recordedHeaderNames { if let value = request.header(name) { headers[name] = value } }
        return headers
    }

    static let recordedHeaderNames = ["ttl", "urgency", "topic", "content-encoding"]

    /// A push service's answer to an injected fault: 429 and 503 with
    /// `Retry-After` (RFC 8030 §8.4 lets a push service throttle senders), 500.
    public func injectedError(status: Int) -> SimulatedAnswer {
        let retryAfter = settings.retryAfter.map { [WebPushSimulatorHeader("retry-after", String($0))] } ?? []
        let rejection =
            switch status {
            case 429:
                WebPushSimulatorRejection(
                    429, "TooManyRequests", "injected fault: too many requests", headers: retryAfter)
            case 503:
                WebPushSimulatorRejection(
                    503, "ServiceUnavailable", "injected fault: the push service is unavailable", headers: retryAfter)
            default: WebPushSimulatorRejection(500, "InternalServerError", "injected fault: internal server error")
            }
        return rejection.answer(delay: nil)
    }

    /// 201 Created with `Location` (the message's resource, RFC 8030 §5)
    /// and the `TTL` kept (§5.2), else the first check's refusal; the
    /// `Simulator` counts the answer and records a refusal.
    public func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        do {
            let accepted = try check(request)
            recorder.record(accepted.notification)
            let location = accepted.origin + Self.messagePathPrefix + accepted.notification.messageID
            return .respond(
                status: 201, headers: [("location", location), ("ttl", String(accepted.ttl))], body: [], delay: nil)
        } catch {
            return error.answer(delay: nil)
        }
    }

    /// The id in `/push/<id>` (a query left out); nil when the rest of the
    /// path is empty or has another segment, which no subscription has.
    static func subscriptionID(inPath path: String) -> String? {
        guard path.hasPrefix(pushPathPrefix) else { return nil }
        let rest = path.dropFirst(pushPathPrefix.count)
        let id = rest.prefix { $0 != "?" }
        guard !id.isEmpty, !id.contains("/") else { return nil }
        return String(id)
    }
}

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
