import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldSimulator
import HeraldTestSupport

/// A `Simulator` served over TLS on a free loopback port with the test CA's
/// server certificate, as `herald simulate` serves it: the one way tests
/// start a simulated provider, whatever services it plays.
///
/// Why one: a test's client trusts `pki`'s CA and reaches `baseURL`; the
/// server is started before the initializer returns (its loop thread
/// running, so a client started at once is not left in the listen backlog
/// while other suites hold the cooperative threads), and `stop` returns only
/// once the port no longer listens.
public final class SimulatorServer: Sendable {
    /// One throwaway CA and server certificate (for `localhost` and
    /// 127.0.0.1) for every simulator of the test process; the directory goes
    /// when the process exits.
    public static let sharedPKI = TestPKI.shared(name: "Herald Simulator Tests CA")

    public let simulator: Simulator
    public let server: HTTP2Server
    /// The CA a client trusts to reach this server.
    public let pki: TestPKI
    private let task: Task<Void, any Error>

    public var port: Int { server.port }
    /// `https://localhost:<port>`.
    public var baseURL: String { "https://localhost:\(server.port)" }

    /// Serves `simulator` and returns once the server runs.
    /// - Parameters:
    ///   - clientCertificates: ask clients for a certificate issued by `pki`'s CA (optional, as Apple's servers do).
    ///   - offersHTTP2: false: ALPN offers HTTP/1.1 only (a push service that speaks no HTTP/2).
    ///   - goAwayAfterStreams: GOAWAY on each connection after this many streams.
    public init(
        _ simulator: Simulator, pki: TestPKI? = nil, clientCertificates: Bool = false, offersHTTP2: Bool = true,
        goAwayAfterStreams: Int? = nil, shutdownGracePeriod: Duration = .seconds(5), logger: Logger
    ) async throws {
        let pki = if let pki { pki } else { try await Self.sharedPKI.get() }
        var tls = HTTP2ServerTLSConfiguration(
            certificateChainFile: pki.serverCertificatePath, privateKeyFile: pki.serverKeyPath,
            clientAuthentication: clientCertificates ? .optional(caFile: pki.caCertificatePath) : .none)
        tls.offersHTTP2 = offersHTTP2
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(
                tls: tls, maxConcurrentStreams: simulator.maxConcurrentStreams, goAwayAfterStreams: goAwayAfterStreams,
                shutdownGracePeriod: shutdownGracePeriod),
            handler: simulator, logger: logger)
        self.simulator = simulator
        self.server = server
        self.pki = pki
        task = Task { try await server.run() }
        _ = await eventually(timeout: .seconds(60), every: .milliseconds(1)) { server.hasStarted }
    }

    /// Stops the server abruptly and returns once it no longer listens: a
    /// client started after it finds nothing at the port.
    public func stop() async {
        server.shutdown(graceful: false)
        _ = try? await task.value
    }

    /// Stops the server abruptly without waiting (for a `defer`).
    public func shutdown() {
        server.shutdown(graceful: false)
        task.cancel()
    }

    /// Runs `body` with a server serving `simulator`, then stops it.
    public static func with<R: Sendable>(
        _ simulator: Simulator, pki: TestPKI? = nil, clientCertificates: Bool = false, goAwayAfterStreams: Int? = nil,
        shutdownGracePeriod: Duration = .seconds(5), logger: Logger, _ body: (SimulatorServer) async throws -> R
    ) async throws -> R {
        let running = try await SimulatorServer(
            simulator, pki: pki, clientCertificates: clientCertificates, goAwayAfterStreams: goAwayAfterStreams,
            shutdownGracePeriod: shutdownGracePeriod, logger: logger)
        do {
            let result = try await body(running)
            await running.stop()
            return result
        } catch {
            await running.stop()
            throw error
        }
    }
}
