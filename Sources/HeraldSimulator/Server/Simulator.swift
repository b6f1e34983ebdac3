import HeraldCore
import HeraldHTTP2Server
import Synchronization

/// The simulator's front door: an `HTTP2Handler` that turns each request
/// (HTTP/2, or HTTP/1.1 where the service accepts it) into a
/// `SimulatedRequest`, applies the configured faults, hands it to the first
/// service that serves its path, and sends the service's answer (late, as a
/// reset, or followed by GOAWAY). Counts every answer in the recorder, and
/// sets each HTTP/2 connection's stream limit the way the services' real
/// endpoints do.
public final class Simulator: HTTP2Handler {
    public let services: [any SimulatorService]
    public let recorder: NotificationRecorder
    public let faults: FaultInjector
    private let clock: @Sendable () -> Timestamp
    private let logger: Logger
    /// Every connection that carried a request, and whether a service has decided its stream limit.
    private let connections = Mutex([UInt64: Bool]())

    /// - Parameter clock: the time requests are stamped with (token ages, dead-token times).
    public init(
        services: [any SimulatorService], recorder: NotificationRecorder, faults: FaultInjector = FaultInjector(faults: .none),
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
        services.map { $0.initialStreamLimit.resolved(configuredMaximum: maxConcurrentStreams) }.min() ?? maxConcurrentStreams
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
            responder.respond(HTTP2Response(status: 404, text: "{\"reason\":\"BadPath\"}"))
            return
        }
        if service.requiresHTTP2, request.httpVersion != .http2 {
            Self.apply(Self.http2Required(service: service.name, version: request.httpVersion), latency: nil,
                       to: responder, service: service.name, recorder: recorder, logger: logger)
            return
        }
        let decision = faults.decide(at: now)
        let latency = faults.faults.latency?.duration
        // Answered here, on the event loop: no task and no thread hop per
        // request (the answer leaves in this loop turn's write).
        let answer: SimulatedAnswer = switch decision {
        case .handle: service.handle(simulated)
        case .error(let status): service.injectedError(status: status)
        }
        Self.apply(answer, latency: latency, to: responder, service: service.name, recorder: recorder, logger: logger)
        if case .handle = decision, request.httpVersion == .http2 {
            decideStreamLimit(of: request.connectionID, service: service, request: simulated, answer: answer, responder: responder)
        }
    }

    /// The first answer whose service names a limit decides the connection's
    /// (an injected fault, which the service never saw, decides nothing).
    private func decideStreamLimit(
        of connectionID: UInt64, service: any SimulatorService, request: SimulatedRequest, answer: SimulatedAnswer,
        responder: HTTP2Responder
    ) {
        guard connections.withLock({ $0[connectionID] == false }),
              let limit = service.streamLimit(afterAnswering: request, with: answer)?.resolved(configuredMaximum: maxConcurrentStreams)
        else { return }
        connections.withLock { $0[connectionID] = true }
        if limit != initialMaxConcurrentStreams { responder.setMaxConcurrentStreams(limit) }
    }

    /// The answer to an HTTP/1.1 request for a service that serves HTTP/2 only.
    private static func http2Required(service: String, version: HTTPVersion) -> SimulatedAnswer {
        var object = JSONObject()
        object["reason"] = .string("HTTPVersionNotSupported")
        object["description"] = .string("\(service) accepts HTTP/2 only (RFC 9113); this request came over \(version.rawValue)")
        return .respond(
            status: 505, headers: [("content-type", "application/json")], body: JSONValue.object(object).serialized, delay: nil)
    }

    private static func apply(
        _ answer: SimulatedAnswer, latency: Duration?, to responder: HTTP2Responder, service: String,
        recorder: NotificationRecorder, logger: Logger
    ) {
        switch answer {
        case .respond(let status, let headers, let body, let delay):
            recorder.count(provider: service, status: status)
            let response = HTTP2Response(status: status, headers: headers, body: body)
            let wait = [delay, latency].compactMap { $0 }.reduce(Duration.zero, +)
            if wait > .zero { responder.respond(response, after: wait) } else { responder.respond(response) }
            if status != 200 { logger.debug("answered with an error", ["service": .string(service), "status": .int(status)]) }
        case .reset(let errorCode):
            responder.reset(HTTP2ErrorCode(rawValue: errorCode) ?? .internalError)
        case .respondThenGoAway(let status, let headers, let body, let reason):
            recorder.count(provider: service, status: status)
            responder.respond(HTTP2Response(status: status, headers: headers, body: body))
            let debugData = reason.map { JSONValue.object(JSONObject([("reason", .string($0))])).serialized } ?? []
            responder.goAway(debugData: debugData)
        }
    }
}
