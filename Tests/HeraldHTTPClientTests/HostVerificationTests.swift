import COpenSSL
import HeraldCore
import HeraldHTTP2Server
@testable import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// The server's certificate is checked against the host of the URL however
/// that host is written, on both engines, and a check that cannot be set up
/// stops the connection before anything is sent.
@Suite struct HostVerificationTests {
    /// 127.0.0.1 written in the forms `inet_aton` and libcurl accept.
    static let loopbackForms = [
        "127.1", "127.0.1", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "0x7f000001", "127.0.0.1",
    ]

    @Test(arguments: HTTPClientConfiguration.Engine.allCases, loopbackForms)
    func certificateForAnotherHostIsRejectedWhateverFormTheAddressIsWrittenIn(
        engine: HTTPClientConfiguration.Engine, host: String
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let wrong = try await pki.makeServerCertificate(
            commonName: "wrong.example.com", subjectAltNames: ["DNS:wrong.example.com"])
        let handler = ScriptedHandler()
        let server = try HTTP2Server(
            configuration: HTTP2ServerConfiguration(
                tls: HTTP2ServerTLSConfiguration(
                    certificateChainFile: wrong.certificatePath, privateKeyFile: wrong.keyPath)),
            handler: handler, logger: Fixtures.logger)
        let error = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                do {
                    _ = try await client.send(
                        HTTPClientRequest(
                            url: "https://\(host):\(server.port)/3/device/a",
                            headers: [("authorization", "bearer secret-jwt")],
                            body: Array("{}".utf8)))
                    return nil as HTTPClientError?
                } catch let error as HTTPClientError {
                    return error
                }
            }
        }
        #expect(error?.kind == .certificateRejected, "\(host) on \(engine): \(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(error?.host.hasSuffix(":\(server.port)") == true, "names the host: \(String(describing: error))")
        #expect(handler.requests.isEmpty, "nothing, no JWT, reached a server whose certificate names another host")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases, loopbackForms)
    func everyFormOfTheAddressReachesTheSameServerAsTheDottedQuad(engine: HTTPClientConfiguration.Engine, host: String)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        let handler = ScriptedHandler()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: handler, logger: Fixtures.logger)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                try await client.send(HTTPClientRequest(url: "https://\(host):\(server.port)/x"))
            }
        }
        #expect(response.status == 200, "the certificate names IP 127.0.0.1, which \(host) is")
        #expect(
            handler.requests.map(\.authority) == ["127.0.0.1:\(server.port)"],
            "both engines send the canonical address as :authority")
    }

    @Test func ipv4LiteralsAreReadAsLibcurlReadsThem() {
        let canonical = [
            "127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "2130706433": "127.0.0.1", "0x7f.0.0.1": "127.0.0.1",
            "0177.0.0.1": "127.0.0.1", "0X7F.1": "127.0.0.1", "10.0x10.0300": "10.16.0.192", "0": "0.0.0.0",
            "255.255.255.255": "255.255.255.255", "4294967295": "255.255.255.255", "1.2.65535": "1.2.255.255",
        ]
        for (form, address) in canonical {
            #expect(IPv4Literal.canonical(Array(form.utf8)) == address, "\(form)")
            let url = H2URL("https://\(form):8443/p")
            #expect(
                url?.host == address && url?.hostIsAddress == true && url?.authority == "\(address):8443",
                "\(form): \(String(describing: url))")
        }
        // Not IPv4 literals: names (libcurl resolves them as names too).
        for name in [
            "4294967296", "256.1.1.1", "1.256.1.1", "1.2.65536", "1.2.3.4.5", "08.1.1.1", "0x", "1..1", "1.2.3.", ".1",
            "-1",
            "+1", "0xg", "1.2.3.4a", "example.com", "12a",
        ] {
            #expect(IPv4Literal.canonical(Array(name.utf8)) == nil, "\(name) is a name")
            #expect(H2URL("https://\(name)/")?.hostIsAddress != true, "\(name) is checked as a name")
        }
        #expect(H2URL("https://[::1]/")?.hostIsAddress == true)
        #expect(H2URL("https://ex ample.com/") == nil, "a space in the host is refused")
        #expect(H2URL("https://ex\u{7F}ample.com/") == nil)
    }

    @Test func aHostOpenSSLCannotCheckStopsTheHandshakeBeforeItStarts() throws {
        let context = try #require(SSL_CTX_new(TLS_client_method()))
        defer { SSL_CTX_free(context) }
        let ssl = try #require(SSL_new(context))
        defer { SSL_free(ssl) }
        // Brackets make it an address to check, but it is no IPv6 address.
        let notAnAddress = try #require(H2URL("https://[zz::1]:443/"))
        let refusal = H2Connection.expectPeer(notAnAddress, on: ssl)
        #expect(refusal?.contains("not an IP address") == true, "\(String(describing: refusal))")
        #expect(H2Connection.expectPeer(try #require(H2URL("https://127.1/")), on: ssl) == nil)
        #expect(H2Connection.expectPeer(try #require(H2URL("https://api.push.apple.com/")), on: ssl) == nil)
    }
}
