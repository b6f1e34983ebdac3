import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldTestSupport

/// Shared material for the server tests: one throwaway PKI, a quiet logger,
/// a way to run the server around a test body, and external clients.
enum Fixtures {
    /// Made on first use; its directory is removed when the test process exits.
    static let pki = TestPKI.shared(name: "Herald Server Tests CA")

    static let logger = Logger(label: "test", level: .warning, sink: MemoryLogSink())

    static func tlsServer(
        _ pki: TestPKI, clientAuthentication: HTTP2ServerTLSConfiguration.ClientAuthentication = .none
    ) -> HTTP2ServerConfiguration {
        HTTP2ServerConfiguration(
            tls: HTTP2ServerTLSConfiguration(
                certificateChainFile: pki.serverCertificatePath, privateKeyFile: pki.serverKeyPath,
                clientAuthentication: clientAuthentication))
    }
}

/// Answers with the request's method, path, body size and client certificate CN as text.
struct DescribeHandler: HTTP2Handler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let cn = request.peerCertificate?.commonName ?? "-"
        let verified = request.peerCertificate?.verified ?? false
        responder.respond(
            HTTP2Response(
                status: 200, headers: [("content-type", "text/plain")],
                text: "\(request.method) \(request.path) \(request.body.count) cn=\(cn) verified=\(verified)"))
    }
}
