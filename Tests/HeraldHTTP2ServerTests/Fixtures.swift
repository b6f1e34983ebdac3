import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldTestSupport

/// Shared material for the server tests: one throwaway PKI, a quiet logger,
/// a way to run the server around a test body, and external clients.
enum Fixtures {
    /// Made on first use; its directory is removed when the test process exits.
    static let pki: Result<TestPKI, TestPKIError> = Result { () throws(TestPKIError) -> TestPKI in
        let pki = try TestPKI.make(name: "Herald Server Tests CA")
        atexit { if case .success(let pki) = Fixtures.pki { pki.remove() } }
        return pki
    }

    static let logger = Logger(label: "test", level: .warning, sink: MemoryLogSink())

    static func tlsServer(
        _ pki: TestPKI, clientAuthentication: HTTP2ServerTLSConfiguration.ClientAuthentication = .none
    ) -> HTTP2ServerConfiguration {
        HTTP2ServerConfiguration(tls: HTTP2ServerTLSConfiguration(
            certificateChainFile: pki.serverCertificatePath, privateKeyFile: pki.serverKeyPath,
            clientAuthentication: clientAuthentication))
    }
}

/// Runs `server` for the duration of `body`, then stops it abruptly.
func withRunning<R: Sendable>(_ server: HTTP2Server, _ body: () async throws -> R) async throws -> R {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            let result = try await body()
            server.shutdown(graceful: false)
            try await group.waitForAll()
            return result
        } catch {
            server.shutdown(graceful: false)
            try? await group.waitForAll()
            throw error
        }
    }
}

/// The output and exit status of an external program (h2load, nghttp, curl).
struct ToolRun: Sendable {
    let status: Int32
    let output: String
}

/// Runs an installed command-line client off the cooperative pool and collects its output.
func runTool(_ path: String, _ arguments: [String]) async throws -> ToolRun {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do {
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: ToolRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}

/// Answers with the request's method, path, body size and client certificate CN as text.
struct DescribeHandler: HTTP2Handler {
    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let cn = request.peerCertificate?.commonName ?? "-"
        let verified = request.peerCertificate?.verified ?? false
        responder.respond(HTTP2Response(
            status: 200, headers: [("content-type", "text/plain")],
            text: "\(request.method) \(request.path) \(request.body.count) cn=\(cn) verified=\(verified)"))
    }
}
