/// Routes requests to handlers by method and path: the small API the
/// simulator builds on (`POST /3/device/*`, `POST /v1/projects/*`, ...).
///
/// A pattern is either an exact path or a prefix ending in `*`. The first
/// matching route wins; the query string is ignored for matching. No match
/// answers 404, a path match with another method 405.
public struct HTTP2Router: HTTP2Handler {
    /// A synchronous handler: runs on the event loop, must not block.
    public typealias Handler = @Sendable (HTTP2Request, HTTP2Responder) -> Void

    private struct Route: Sendable {
        let method: String
        let pattern: String
        let handler: Handler

        func matches(path: String) -> Bool {
            if pattern.hasSuffix("*") { return path.hasPrefix(pattern.dropLast()) }
            return path == pattern
        }
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route whose handler answers through the responder (synchronously or later).
    public mutating func on(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method.uppercased(), pattern: pattern, handler: handler))
    }

    /// Adds a route whose handler is async: it runs in a new task, off the
    /// event loop, and its result is sent when it returns.
    public mutating func onAsync(
        _ method: String, _ pattern: String, _ handler: @escaping @Sendable (HTTP2Request) async -> HTTP2Response
    ) {
        on(method, pattern) { request, responder in
            Task { responder.respond(await handler(request)) }
        }
    }

    public func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let path =
            request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? request.path
        var pathMatched = false
        for route in routes where route.matches(path: path) {
            if route.method == request.method {
                route.handler(request, responder)
                return
            }
            pathMatched = true
        }
        if pathMatched {
            responder.respond(HTTP2Response(status: 405, text: "{\"reason\":\"MethodNotAllowed\"}"))
        } else {
            responder.respond(HTTP2Response(status: 404, text: "{\"reason\":\"BadPath\"}"))
        }
    }
}
