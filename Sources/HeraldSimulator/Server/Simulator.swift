import HeraldCore
import HeraldHTTP2Server
import Synchronization

/// The simulator's front door: an `HTTP2Handler` that turns each HTTP/2
/// request into a `SimulatedRequest`, applies the configured faults, hands it
/// to the first service that serves its path, and sends the service's answer
/// (late, as a reset, or followed by GOAWAY). Counts every answer in the recorder.
public final class Simulator: HTTP2Handler {
    public let services: [any SimulatorService]
    public let recorder: NotificationRecorder
    public let faults: FaultInjector
    private let clock: @Sendable () -> Timestamp
    private let logger: Logger
    private let connections = Mutex(Set<UInt64>())

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

    /// How many distinct HTTP/2 connections have carried requests (a client
    /// that recovers from GOAWAY shows up as more than one).
    public var connectionsSeen: Int { connections.withLock { $0.count } }

    public func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let now = clock()
        connections.withLock { _ = $0.insert(request.connectionID) }
        let certificate = request.peerCertificate
        let simulated = SimulatedRequest(
            method: request.method, path: request.path, headers: request.headers, body: request.body,
            clientCertificateSubject: certificate?.verified == true ? certificate?.subject : nil, receivedAt: now)
        guard let service = services.first(where: { $0.serves(simulated) }) else {
            responder.respond(HTTP2Response(status: 404, text: "{\"reason\":\"BadPath\"}"))
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
