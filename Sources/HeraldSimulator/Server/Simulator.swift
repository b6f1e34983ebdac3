import HeraldCore
import HeraldHTTP2Server
import HeraldSystem

/// The simulator's front door: an `HTTP2Handler` that turns each request
/// (HTTP/2, or HTTP/1.1 where the service accepts it) into a
/// `SimulatedRequest`, finds the first service that serves its path, applies
/// the configured faults aimed at that service, and sends the service's
/// answer (late, as a reset, or followed by GOAWAY) or the fault's. Counts
/// every answer in the recorder, records every refusal (any answer but a
/// 2xx, a reset, a hang), and sets each HTTP/2 connection's stream limit the way
/// the services' real endpoints do. The admin API (`isProviderTraffic`
/// false) is answered as it is: no faults, no counting, no record.
public final class Simulator: HTTP2Handler {
    public let services: [any SimulatorService]
    public let recorder: NotificationRecorder
    public let faults: FaultInjector
    private let clock: @Sendable () -> Timestamp
    private let logger: Logger
    /// Every connection that carried a request, and whether a service has decided its stream limit.
    private let connections = Locked([UInt64: Bool]())
    private let hungStreams = HungStreams()

    /// - Parameter clock: the time requests are stamped with (token ages, dead-token times).
    public init(
        services: [any SimulatorService], recorder: NotificationRecorder,
        faults: FaultInjector = FaultInjector(faults: .none),
        logger: Logger, clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.services = services
        self.recorder = recorder
        self.faults = faults
        self.logger = logger.child("simulator")
        self.clock = clock
    }

    /// How many distinct connections have carried requests (a client that
    /// recovers from GOAWAY shows up as more than one).
    public var connectionsSeen: Int { connections.withLock { $0.count } }

    /// The most concurrent streams a connection may carry: `faults.max_streams`,
    /// else the server's default. Serve the simulator with it as the
    /// server's `maxConcurrentStreams`.
    public var maxConcurrentStreams: Int {
        faults.faults.maxStreams ?? HTTP2ServerConfiguration.defaultMaxConcurrentStreams
    }

    /// A new connection opens with the smallest limit of the services on this
    /// port (1 with APNs among them: Apple's limit before a provider token is accepted).
    public var initialMaxConcurrentStreams: Int {
        services.map { $0.initialStreamLimit.resolved(configuredMaximum: maxConcurrentStreams) }.min()
            ?? maxConcurrentStreams
    }

    public func maxConcurrentStreams(forNewConnection connectionID: UInt64) -> Int? {
        initialMaxConcurrentStreams
    }

    public func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let now = clock()
        connections.withLock { if $0[request.connectionID] == nil { $0[request.connectionID] = false } }
        let certificate = request.peerCertificate
        let simulated = SimulatedRequest(
            method: request.method, path: request.path, headers: request.headers, body: request.body,
            clientCertificateSubject: certificate?.verified == true ? certificate?.subject : nil, receivedAt: now)
        guard let service = services.first(where: { $0.serves(simulated) }) else {
            let body = Array("{\"reason\":\"BadPath\"}".utf8)
            recordRefusal(of: simulated, by: nil, status: 404, body: body, reason: "BadPath", fault: nil)
            responder.respond(HTTP2Response(status: 404, body: body))
            return
        }
        guard service.isProviderTraffic else {
            Self.apply(
                service.handle(simulated), latency: nil, to: responder, countAs: nil, recorder: recorder, logger: logger
            )
            return
        }
        if service.requiresHTTP2, request.httpVersion != .http2 {
            let answer = Self.http2Required(service: service.name, version: request.httpVersion)
            recordRefusal(of: simulated, by: service, answer: answer, fault: nil)
            Self.apply(answer, latency: nil, to: responder, countAs: service.name, recorder: recorder, logger: logger)
            return
        }
        let verdict = faults.decide(service: service.name, addressee: { service.addressee(of: simulated) }, at: now)
        // Answered here, on the event loop: no task and no thread hop per
        // request (the answer leaves in this loop turn's write).
        let answer: SimulatedAnswer
        switch verdict.decision {
        case .handle: answer = service.handle(simulated)
        case .error(let status): answer = service.injectedError(status: status)
        case .reset: answer = .reset(errorCode: HTTP2ErrorCode.internalError.rawValue)
        case .hang:
            recordRefusal(of: simulated, by: service, answer: nil, fault: .hang)
            hungStreams.hold(responder)
            return
        case .drop:
            recordRefusal(of: simulated, by: service, answer: nil, fault: .drop)
            responder.abortConnection()
            return
        }
        recordRefusal(of: simulated, by: service, answer: answer, fault: verdict.decision.kind)
        Self.apply(
            answer, latency: verdict.latency, to: responder, countAs: service.name, recorder: recorder, logger: logger)
        if case .handle = verdict.decision, request.httpVersion == .http2 {
            decideStreamLimit(
                of: request.connectionID, service: service, request: simulated, answer: answer, responder: responder)
        }
    }

    /// The first answer whose service names a limit decides the connection's
    /// (an injected fault, which the service never saw, decides nothing).
    private func decideStreamLimit(
        of connectionID: UInt64, service: any SimulatorService, request: SimulatedRequest, answer: SimulatedAnswer,
        responder: HTTP2Responder
    ) {
        guard connections.withLock({ $0[connectionID] == false }),
            let limit = service.streamLimit(afterAnswering: request, with: answer)?.resolved(
                configuredMaximum: maxConcurrentStreams)
        else { return }
        connections.withLock { $0[connectionID] = true }
        if limit != initialMaxConcurrentStreams { responder.setMaxConcurrentStreams(limit) }
    }

    /// The answer to an HTTP/1.1 request for a service that serves HTTP/2 only.
    private static func http2Required(service: String, version: HTTPVersion) -> SimulatedAnswer {
        var object = JSONObject()
        object["reason"] = .string("HTTPVersionNotSupported")
        object["description"] = .string(
            "\(service) accepts HTTP/2 only (RFC 9113); this request came over \(version.rawValue)")
        return .respond(
            status: 505, headers: [("content-type", "application/json")], body: JSONValue.object(object).serialized,
            delay: nil)
    }

    /// Sends `answer`; counts it under `service` unless that is nil (the admin API).
    private static func apply(
        _ answer: SimulatedAnswer, latency: Duration?, to responder: HTTP2Responder, countAs service: String?,
        recorder: NotificationRecorder, logger: Logger
    ) {
        switch answer {
        case .respond(let status, let headers, let body, let delay):
            if let service { recorder.count(provider: service, status: status) }
            let response = HTTP2Response(status: status, headers: headers, body: body)
            let wait = [delay, latency].compactMap { $0 }.reduce(Duration.zero, +)
            if wait > .zero { responder.respond(response, after: wait) } else { responder.respond(response) }
            if let service, !isSuccess(status) {
                logger.debug("answered with an error", ["service": .string(service), "status": .int(status)])
            }
        case .reset(let errorCode):
            responder.reset(HTTP2ErrorCode(rawValue: errorCode) ?? .internalError)
        case .respondThenGoAway(let status, let headers, let body, let reason):
            if let service { recorder.count(provider: service, status: status) }
            responder.respond(HTTP2Response(status: status, headers: headers, body: body))
            let debugData = reason.map { JSONValue.object(JSONObject([("reason", .string($0))])).serialized } ?? []
            responder.goAway(debugData: debugData)
        }
    }
}
