import HeraldCore

/// One request as a simulated provider sees it, independent of the HTTP/2
/// server that carried it, so services are testable without sockets.
public struct SimulatedRequest: Sendable {
    public var method: String
    /// `:path`, e.g. `/3/device/<token>` or `/v1/projects/p/messages:send`.
    public var path: String
    /// Header names are lower-case (HTTP/2); repeated names appear repeatedly.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The subject of the verified TLS client certificate, if the client sent one (APNs certificate auth).
    public var clientCertificateSubject: String?
    /// When the server received the request (injected so token-age checks are testable).
    public var receivedAt: Timestamp

    public init(
        method: String, path: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        clientCertificateSubject: String? = nil, receivedAt: Timestamp
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.clientCertificateSubject = clientCertificateSubject
        self.receivedAt = receivedAt
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// How many times header `name` appears (APNs answers DuplicateHeaders for more than one).
    public func headerCount(_ name: String) -> Int {
        let lower = name.lowercased()
        return headers.reduce(0) { $0 + ($1.name == lower ? 1 : 0) }
    }
}

/// What a simulated provider does with a request: answer it (perhaps late),
/// reset the stream, or answer and then send GOAWAY.
public enum SimulatedAnswer: Sendable {
    case respond(status: Int, headers: [(name: String, value: String)], body: [UInt8], delay: Duration?)
    /// RST_STREAM with an HTTP/2 error code (e.g. 0x2 INTERNAL_ERROR).
    case reset(errorCode: UInt32)
    /// Answer, then GOAWAY on the connection (with an optional JSON debug reason, as APNs does).
    case respondThenGoAway(status: Int, headers: [(name: String, value: String)], body: [UInt8], reason: String?)
}

/// A provider the simulator imitates (APNs, FCM, Google's OAuth endpoint, a Web Push push service).
/// The simulator asks each service in turn whether it serves a request's path.
public protocol SimulatorService: Sendable {
    /// A short name for logs and counters: `apns`, `fcm`, `oauth`, `webpush`.
    var name: String { get }
    func serves(_ request: SimulatedRequest) -> Bool
    /// Answers on the server's event-loop thread: it must not block (checks,
    /// a signature verified once per token, a lock or two).
    func handle(_ request: SimulatedRequest) -> SimulatedAnswer
    /// The service's own answer to an injected fault (`status` 429, 500 or
    /// 503), shaped like the real service's errors (no default: a generic
    /// shape would teach clients an error no provider sends).
    func injectedError(status: Int) -> SimulatedAnswer
    /// Whether the real service refuses HTTP/1.1 (APNs: Apple accepts only
    /// HTTP/2); the simulator then answers an HTTP/1.1 request 505 without
    /// asking the service. Defaults to false (Google's endpoints accept HTTP/1.1).
    var requiresHTTP2: Bool { get }
    /// The SETTINGS_MAX_CONCURRENT_STREAMS the real service advertises on a
    /// new connection. One port serves every service, so a new connection
    /// opens with the smallest of them. Defaults to the configured maximum.
    var initialStreamLimit: SimulatorStreamLimit { get }
    /// The limit a connection moves to once this service has answered
    /// `request` on it with `answer`, or nil to leave it for a later request
    /// (APNs: until a provider token is accepted). The first request that
    /// returns a limit decides the connection's for good. Defaults to
    /// `initialStreamLimit`.
    func streamLimit(afterAnswering request: SimulatedRequest, with answer: SimulatedAnswer) -> SimulatorStreamLimit?
    /// Whom `request` is addressed to, when it names an addressee this service
    /// can read: the record's target, per-token faults, probes. Defaults to nil.
    func addressee(of request: SimulatedRequest) -> SimulatedAddressee?
    /// The reason the record shows for an error answer with this body, read
    /// where the service writes its error shape. Defaults to nil.
    func reason(ofErrorBody body: [UInt8]) -> String?
    /// The request headers a refusal's record keeps: those that shape the
    /// service's answer, never `authorization` (a credential). Defaults to
    /// the `apns-*` headers.
    func recordedHeaders(of request: SimulatedRequest) -> [String: String]
    /// Whether the service's requests are provider traffic: counted, recorded
    /// when refused, and in reach of injected faults. True by default; the
    /// simulator's own admin API says false.
    var isProviderTraffic: Bool { get }
}

/// A stream limit as a service states it: a number of its own (Google's
/// front ends: 100), or whatever the simulator is configured to allow
/// (`faults.max_streams`, 1000 by default). Numbers above the configured
/// maximum are lowered to it.
public enum SimulatorStreamLimit: Sendable, Equatable {
    case streams(Int)
    case configuredMaximum

    /// The number this limit means under `configuredMaximum`.
    public func resolved(configuredMaximum maximum: Int) -> Int {
        switch self {
        case .streams(let count): min(count, maximum)
        case .configuredMaximum: maximum
        }
    }
}

extension SimulatorService {
    public var requiresHTTP2: Bool { false }
    public var initialStreamLimit: SimulatorStreamLimit { .configuredMaximum }

    public func streamLimit(afterAnswering request: SimulatedRequest, with answer: SimulatedAnswer)
        -> SimulatorStreamLimit?
    {
        initialStreamLimit
    }

    public func addressee(of request: SimulatedRequest) -> SimulatedAddressee? { nil }
    public func reason(ofErrorBody body: [UInt8]) -> String? { nil }
    public func recordedHeaders(of request: SimulatedRequest) -> [String: String] { request.apnsHeaders }
    public var isProviderTraffic: Bool { true }
}

extension SimulatedRequest {
    /// The request's `apns-*` headers by name, as the record keeps them (the
    /// `authorization` header, a credential, is never kept).
    public var apnsHeaders: [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in self.headers where name.hasPrefix("apns-") { headers[name] = value }
        return headers
    }
}
