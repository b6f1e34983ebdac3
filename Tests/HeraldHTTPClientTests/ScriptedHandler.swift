import HeraldCore
import HeraldHTTP2Server
import HeraldSystem

/// Answers every request with one fixed response and keeps every request it
/// saw, so a test can assert what reached the server (or that nothing did).
final class ScriptedHandler: HTTP2Handler {
    private let response: HTTP2Response
    private let seen = Locked<[HTTP2Request]>([])

    init(_ response: HTTP2Response = HTTP2Response(status: 200)) { self.response = response }

    /// Every request the server handed to the handler, in arrival order.
    var requests: [HTTP2Request] { seen.withLock { $0 } }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        seen.withLock { $0.append(request) }
        responder.respond(response)
    }
}
