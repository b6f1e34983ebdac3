import Glibc
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldSystem
import HeraldTestSupport

/// Shared material for the client tests: one throwaway PKI per test process,
/// a quiet logger, and helpers that run a server or client around a test body.
enum Fixtures {
    /// Made on first use; its directory is removed when the test process exits.
    static let pki = TestPKI.shared(name: "Herald Client Tests CA")

    static let logger = Logger(label: "test", level: .warning, sink: MemoryLogSink())

    static func tlsServer(
        _ pki: TestPKI, clientAuthentication: HTTP2ServerTLSConfiguration.ClientAuthentication = .none,
        port: Int = 0, goAwayAfterStreams: Int? = nil
    ) -> HTTP2ServerConfiguration {
        HTTP2ServerConfiguration(
            port: port,
            tls: HTTP2ServerTLSConfiguration(
                certificateChainFile: pki.serverCertificatePath, privateKeyFile: pki.serverKeyPath,
                clientAuthentication: clientAuthentication),
            goAwayAfterStreams: goAwayAfterStreams, shutdownGracePeriod: .seconds(2))
    }

    /// A TLS server allowing `streams` streams a connection, answering 200
    /// after 20 ms and recording connections and concurrency in `recorder`.
    static func streamLimitedServer(_ pki: TestPKI, streams: Int, recorder: ConnectionRecorder) throws -> HTTP2Server {
        var configuration = tlsServer(pki)
        configuration.maxConcurrentStreams = streams
        return try HTTP2Server(
            configuration: configuration, handler: RecordingHandler(recorder: recorder), logger: logger)
    }

    /// The error `request` fails with on a fresh client of `engine` (nil if it got a response).
    static func failure(of request: HTTPClientRequest, engine: HTTPClientConfiguration.Engine) async throws
        -> HTTPClientError?
    {
        try await HTTPClient.withClient(configuration: HTTPClientConfiguration(engine: engine), logger: logger) {
            client in
            do {
                _ = try await client.send(request)
                return nil
            } catch let error as HTTPClientError {
                return error
            }
        }
    }

    /// The error a request to `url` fails with on a fresh client of `engine`.
    static func failure(of url: String, engine: HTTPClientConfiguration.Engine) async throws -> HTTPClientError? {
        try await failure(of: HTTPClientRequest(url: url), engine: engine)
    }

    static func clientConfiguration(
        _ pki: TestPKI, engine: HTTPClientConfiguration.Engine = .nghttp2, connections: Int = 1,
        timeout: Duration = .seconds(20)
    ) -> HTTPClientConfiguration {
        HTTPClientConfiguration(
            maxConnectionsPerHost: connections, requestTimeout: timeout,
            tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath),
            engine: engine)
    }
}

/// Echoes the request: status from `x-status` (default 200), body as sent,
/// and the request's method, path and `x-*` headers back as `echo-*` headers.
struct EchoHandler: HTTP2Handler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        var headers: [(name: String, value: String)] = [("echo-method", request.method), ("echo-path", request.path)]
        for header in request.headers where header.name.hasPrefix("x-") {
            headers.append(("echo-" + header.name.dropFirst(2), header.value))
        }
        if let cn = request.peerCertificate?.commonName { headers.append(("echo-client-cn", cn)) }
        let status = request.header("x-status").flatMap { Int($0) } ?? 200
        responder.respond(HTTP2Response(status: status, headers: headers, body: request.body))
    }
}

/// Records which connections requests arrived on and how many were in flight at once.
final class ConnectionRecorder: Sendable {
    private struct State {
        var ids: Set<UInt64> = []
        var first: UInt64?
        var inFlight = 0
        var maxInFlight = 0
    }

    private let state = Locked(State())

    var connectionIDs: Set<UInt64> { state.withLock { $0.ids } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// Whether `connectionID` is the first connection a request arrived on.
    func isFirst(_ connectionID: UInt64) -> Bool { state.withLock { $0.first == connectionID } }

    func arrived(_ connectionID: UInt64) {
        state.withLock {
            $0.ids.insert(connectionID)
            if $0.first == nil { $0.first = connectionID }
            $0.inFlight += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
    }

    func answered() { state.withLock { $0.inFlight -= 1 } }
}

/// Answers 200 after 20 ms from an async route (so streams overlap) and
/// records the connection and how many requests were waiting at once.
struct RecordingHandler: HTTP2Handler {
    let router: HTTP2Router

    init(recorder: ConnectionRecorder) {
        var router = HTTP2Router()
        router.onAsync("POST", "*") { request in
            recorder.arrived(request.connectionID)
            try? await Task.sleep(for: .milliseconds(20))  // the input: an answer that takes a while
            recorder.answered()
            return HTTP2Response(status: 200, body: request.body)
        }
        self.router = router
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        router.handle(request, responder: responder)
    }
}
