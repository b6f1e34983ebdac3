import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

private func sendExpectingError(_ configuration: HTTPClientConfiguration, port: Int) async throws -> HTTPClientError? {
    try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
        do {
            _ = try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(port)/x"))
            return nil
        } catch let error as HTTPClientError {
            return error
        }
    }
}

@Suite struct TLSTests {
    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func serverCertificateFromAnUntrustedCAIsRejectedNamingTheHost(engine: HTTPClientConfiguration.Engine) async throws
    {
        let pki = try await Fixtures.pki.get()
        let stranger = try await TestPKI.make(name: "Some Other CA")
        defer { stranger.remove() }
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki), handler: EchoHandler(), logger: Fixtures.logger)
        let (withOtherCA, withSystemStoreOnly) = try await withRunning(server) {
            (
                try await sendExpectingError(Fixtures.clientConfiguration(stranger, engine: engine), port: server.port),
                try await sendExpectingError(HTTPClientConfiguration(engine: engine), port: server.port)
            )
        }
        for error in [withOtherCA, withSystemStoreOnly] {
            #expect(error?.kind == .certificateRejected, "got \(String(describing: error))")
            #expect(error?.isRetryable == false, "a wrong certificate is not retried")
            #expect(
                error?.description.contains("127.0.0.1:\(server.port)") == true,
                "names the host: \(String(describing: error))")
            #expect(
                error?.message.lowercased().contains("certificate") == true,
                "carries curl's reason: \(String(describing: error))")
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func pemClientCertificateIsPresentedForCertificateAuthentication(engine: HTTPClientConfiguration.Engine)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(commonName: "com.example.pem.\(engine)")
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, clientAuthentication: .required(caFile: pki.caCertificatePath)),
            handler: EchoHandler(), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.tls.clientCertificate = .pem(certificateFile: identity.certificatePath, keyFile: identity.keyPath)
        let response = try await withRunning(server) {
            try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
                try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/3/device/a"))
            }
        }
        #expect(
            response.header("echo-client-cn") == "com.example.pem.\(engine)",
            "the handler saw the client certificate: \(response.headers)")
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases) func pkcs12ClientCertificateWithPasswordIsPresented(
        engine: HTTPClientConfiguration.Engine
    ) async throws {
        let pki = try await Fixtures.pki.get()
        let identity = try await pki.makeClientCertificate(
            commonName: "com.example.p12.\(engine)", pkcs12Password: "s3cret")
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, clientAuthentication: .required(caFile: pki.caCertificatePath)),
            handler: EchoHandler(), logger: Fixtures.logger)
        var configuration = Fixtures.clientConfiguration(pki, engine: engine)
        configuration.tls.clientCertificate = .pkcs12(file: identity.pkcs12Path, password: "s3cret")
        var wrongPassword = configuration
        wrongPassword.tls.clientCertificate = .pkcs12(file: identity.pkcs12Path, password: "wrong")
        let (response, error) = try await withRunning(server) {
            let response = try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) {
                client in
                try await client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/3/device/a"))
            }
            return (response, try await sendExpectingError(wrongPassword, port: server.port))
        }
        #expect(
            response.header("echo-client-cn") == "com.example.p12.\(engine)",
            "the handler saw the client certificate: \(response.headers)")
        #expect(
            error?.kind == .tlsConfiguration,
            "a wrong PKCS#12 password is our configuration error: \(String(describing: error))")
        #expect(error?.isRetryable == false)
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func serverRequiringAClientCertificateRejectsAClientWithout(engine: HTTPClientConfiguration.Engine) async throws {
        let pki = try await Fixtures.pki.get()
        let server = try HTTP2Server(
            configuration: Fixtures.tlsServer(pki, clientAuthentication: .required(caFile: pki.caCertificatePath)),
            handler: EchoHandler(), logger: Fixtures.logger)
        let error = try await withRunning(server) {
            try await sendExpectingError(Fixtures.clientConfiguration(pki, engine: engine), port: server.port)
        }
        #expect(error != nil, "no response without a client certificate")
        #expect(
            error?.kind == .tlsHandshakeFailed || error?.kind == .connectionLost,
            "the server's alert ends the handshake or the first read: \(String(describing: error))")
    }
}
