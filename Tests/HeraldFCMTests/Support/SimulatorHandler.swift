import HeraldCore
import HeraldHTTP2Server
import HeraldSimulator

/// The test-only glue between the HTTP/2 server and simulated services: the
/// real simulator glue is written elsewhere; this is the least that serves
/// our services over real TLS.
struct SimulatorHandler: HTTP2Handler {
    let services: [any SimulatorService]
    let now: @Sendable () -> Timestamp

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let simulated = SimulatedRequest(
            method: request.method, path: request.path, headers: request.headers, body: request.body, receivedAt: now())
        guard let service = services.first(where: { $0.serves(simulated) }) else {
            responder.respond(HTTP2Response(status: 404, text: "no simulated service serves \(request.path)"))
            return
        }
        Task {
            switch service.handle(simulated) {
            case .respond(let status, let headers, let body, let delay):
                let response = HTTP2Response(status: status, headers: headers, body: body)
                if let delay { responder.respond(response, after: delay) } else { responder.respond(response) }
            case .reset(let code):
                responder.reset(HTTP2ErrorCode(rawValue: code) ?? .internalError)
            case .respondThenGoAway(let status, let headers, let body, let reason):
                responder.respond(HTTP2Response(status: status, headers: headers, body: body))
                responder.goAway(debugData: Array((reason ?? "").utf8))
            }
        }
    }
}
