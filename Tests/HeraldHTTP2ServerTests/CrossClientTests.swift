import Foundation
import HeraldCore
import HeraldHTTP2Server
import HeraldTestSupport
import Testing

/// Clients written elsewhere (nghttp2's h2load and nghttp, curl's command line)
/// against our server: it must speak HTTP/2 the way they expect.
@Suite struct CrossClientTests {
    @Test func h2loadCompletesEveryMultiplexedRequestOnTwentyTLSConnections() async throws {
        let pki = try await Fixtures.pki.get()
        var router = HTTP2Router()
        router.on("POST", "/3/device/*") { _, responder in responder.respond(HTTP2Response(status: 200)) }
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: router, logger: Fixtures.logger)
        let bodyFile = pki.directory + "/h2load-body.json"
        try Array("{\"aps\":{\"alert\":\"hi\"}}".utf8).withUnsafeBytes { bytes in
            guard let file = fopen(bodyFile, "w") else { throw TestPKIError(step: "write body", output: bodyFile) }
            fwrite(bytes.baseAddress, 1, bytes.count, file)
            fclose(file)
        }
        let run = try await withRunning(server) {
            try await runTool(
                "/usr/bin/h2load",
                [
                    "-n", "5000", "-c", "20", "-m", "50", "-t", "1", "-d", bodyFile,
                    "https://127.0.0.1:\(server.port)/3/device/abc",
                ])
        }
        #expect(run.status == 0, "h2load exit status: \(run.output)")
        #expect(
            run.output.contains("5000 total, 5000 started, 5000 done, 5000 succeeded, 0 failed"),
            "h2load summary: \(run.output)")
        #expect(run.output.contains("Application protocol: h2"), "ALPN negotiated h2: \(run.output)")
    }

    @Test func nghttpTalksH2CWithPriorKnowledge() async throws {
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(), handler: DescribeHandler(), logger: Fixtures.logger)
        let run = try await withRunning(server) {
            try await runTool("/usr/bin/nghttp", ["-v", "http://127.0.0.1:\(server.port)/plain/text"])
        }
        #expect(run.status == 0, "nghttp exit status: \(run.output)")
        #expect(run.output.contains(":status: 200"), "nghttp saw a 200: \(run.output)")
        #expect(run.output.contains("GET /plain/text 0 cn=- verified=false"), "body from the handler: \(run.output)")
    }

    @Test func curlCommandLinePresentsItsClientCertificateToTheHandler() async throws {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(commonName: "com.example.curl")
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, clientAuthentication: .optional(caFile: pki.caCertificatePath)),
            handler: DescribeHandler(), logger: Fixtures.logger)
        let run = try await withRunning(server) {
            try await runTool(
                "/usr/bin/curl",
                [
                    "-sS", "--http2", "--cacert", pki.caCertificatePath, "--cert", identity.certificatePath,
                    "--key", identity.keyPath, "-d", "hello", "-w", " http=%{http_version}",
                    "https://localhost:\(server.port)/3/device/abc",
                ])
        }
        #expect(run.status == 0, "curl exit status: \(run.output)")
        #expect(
            run.output == "POST /3/device/abc 5 cn=com.example.curl verified=true http=2", "curl output: \(run.output)")
    }

    @Test func curlWithoutAClientCertificateIsAcceptedWhenOptional() async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, clientAuthentication: .optional(caFile: nil)),
            handler: DescribeHandler(), logger: Fixtures.logger)
        let run = try await withRunning(server) {
            try await runTool(
                "/usr/bin/curl",
                [
                    "-sS", "--http2", "--cacert", pki.caCertificatePath, "https://127.0.0.1:\(server.port)/x",
                ])
        }
        #expect(run.output == "GET /x 0 cn=- verified=false", "curl output: \(run.output)")
    }
}
