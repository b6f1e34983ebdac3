import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// One connection's end must not end another: closing a TLS connection whose
/// peer had already gone left an OpenSSL error queued on the loop's thread,
/// and the next read of any other connection was taken for a TLS failure and
/// that connection dropped (a client making admin calls to the simulator with
/// curl between Herald's sends saw Herald's connection lost).
@Suite struct ConnectionIsolationTests {
    @Test func aPeerThatLeavesDoesNotDropAnotherConnection() async throws {
        let pki = try Fixtures.pki.get()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: DescribeHandler(), logger: Fixtures.logger)
        let configuration = HTTPClientConfiguration(maxConnectionsPerHost: 1, tls: HTTPClientTLSConfiguration(caFile: pki.caCertificatePath))
        try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { http in
                let base = "https://127.0.0.1:\(server.port)"
                for round in 0..<10 {
                    // curl opens its own connection and leaves without a TLS close_notify.
                    let other = try await runTool("/usr/bin/curl", ["-sS", "--http2", "--cacert", pki.caCertificatePath, base + "/other"])
                    #expect(other.output == "GET /other 0 cn=- verified=false", "round \(round)")
                    let kept = try await http.send(HTTPClientRequest(method: "GET", url: base + "/kept"))
                    #expect(String(decoding: kept.body, as: UTF8.self) == "GET /kept 0 cn=- verified=false", "round \(round)")
                }
            }
        }
    }
}
