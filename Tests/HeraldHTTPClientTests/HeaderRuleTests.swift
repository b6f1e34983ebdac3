import HeraldAPNs
import HeraldCore
import HeraldHTTP2Server
import HeraldHTTPClient
import HeraldTestSupport
import Testing

/// One rule for request headers on both engines (`HTTPFieldRule`): a field
/// that could end a libcurl header line, or that HTTP/2 forbids, is refused
/// before anything is sent, and an APNs event field that would make one is
/// that target's failure naming the field.
@Suite struct HeaderRuleTests {
    /// Header fields no engine may send, and a word the refusal must contain.
    static let forbidden: [(name: String, value: String, says: String)] = [
        ("x-collapse", "c\r\nauthorization: bearer forged", "CR (0x0D)"),
        ("x-collapse", "c\nauthorization: bearer forged", "LF (0x0A)"),
        ("x-collapse", "c\u{0}d", "NUL (0x00)"),
        ("x-collapse", "c\u{7F}d", "byte 0x7F"),
        ("x-collapse", "c\u{1B}[31m", "byte 0x1B"),
        ("x-collapse", " padded", "starts with a space"),
        ("x-collapse", "padded\t", "ends with a space or tab"),
        ("x-bad name", "v", "a space (0x20)"),
        (":path", "/other", "':' (0x3A)"),
        ("authorization:\r\nx-evil", "v", "':' (0x3A)"),
        ("", "v", "the name is empty"),
    ]

    @Test func theRuleAllowsWhatRFC9110Allows() {
        #expect(
            HTTPFieldRule.problem(name: "apns-collapse-id", value: "a\tb c-ü") == nil,
            "HTAB inside, spaces inside, UTF-8")
        #expect(
            HTTPFieldRule.problem(name: "X-Custom_Name!#$%&'*+.^`|~", value: "") == nil, "every tchar; an empty value")
        for field in Self.forbidden {
            let problem = HTTPFieldRule.problem(name: field.name, value: field.value)
            #expect(problem?.contains(field.says) == true, "\(field): \(String(describing: problem))")
            #expect(problem?.contains("forged") != true, "a refused value is never quoted (it may be a credential)")
            #expect(
                problem?.contains("\r") != true && problem?.contains("\n") != true, "the message itself holds no CR/LF")
        }
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func aForbiddenHeaderIsRefusedOnBothEnginesAndNothingReachesTheServer(engine: HTTPClientConfiguration.Engine)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        let handler = ScriptedHandler()
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: handler, logger: Fixtures.logger)
        let errors = try await withRunning(server) {
            try await HTTPClient.withClient(
                configuration: Fixtures.clientConfiguration(pki, engine: engine), logger: Fixtures.logger
            ) { client in
                var errors: [HTTPClientError?] = []
                for field in Self.forbidden {
                    do {
                        _ = try await client.send(
                            HTTPClientRequest(
                                url: "https://127.0.0.1:\(server.port)/3/device/a",
                                headers: [(field.name, field.value)], body: [1]))
                        errors.append(nil)
                    } catch let error as HTTPClientError {
                        errors.append(error)
                    }
                }
                // The connection is fine for a request that keeps the rule.
                _ = try await client.send(
                    HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/ok", headers: [("x-fine", "yes")]))
                return errors
            }
        }
        for (field, error) in zip(Self.forbidden, errors) {
            #expect(error?.kind == .invalidRequest, "\(field) on \(engine): \(String(describing: error))")
            #expect(error?.isRetryable == false)
            #expect(
                error?.message.contains("header '") == true && error?.message.contains(field.says) == true,
                "names the header and the problem: \(String(describing: error))")
            #expect(error?.message.contains("not sent") == true)
        }
        #expect(handler.requests.map(\.path) == ["/ok"], "only the valid request reached the server")
        let seen = handler.requests.first?.headers ?? []
        #expect(!seen.contains { $0.name == "authorization" }, "no injected authorization header: \(seen)")
        #expect(seen.contains { $0.name == "x-fine" && $0.value == "yes" })
    }

    @Test(arguments: HTTPClientConfiguration.Engine.allCases)
    func apnsEventFieldsThatWouldMakeAnInvalidHeaderFailTheTargetNamingTheField(engine: HTTPClientConfiguration.Engine)
        async throws
    {
        let pki = try await Fixtures.pki.get()
        let handler = ScriptedHandler(
            HTTP2Response(status: 200, headers: [("apns-id", "8a2d8c3e-6f39-4c5e-9f0a-1f2b3c4d5e6f")]))
        let server = try HTTP2Server(configuration: Fixtures.tlsServer(pki), handler: handler, logger: Fixtures.logger)
        let injected = APNsEvents.event(collapseID: "c\r\nauthorization: bearer forged")
        let overridden = APNsEvents.event(overrides: ["apns-priority": "10\r\nauthorization: bearer forged"])
        let badName = APNsEvents.event(overrides: ["x-evil\r\nauthorization": "forged"])
        let fine = APNsEvents.event(collapseID: "chat-42")
        let (results, rejections) = try await withRunning(server) {
            try await APNsEvents.withProvider(pki: pki, port: server.port, engine: engine) { provider in
                var results: [DeliveryResult] = []
                var rejections: [String] = []
                for event in [injected, overridden, badName, fine] {
                    results.append(try await provider.deliver(event, to: event.targets[0], attempt: 1))
                    do throws(DeliveryRejection) {
                        _ = try provider.prepare(event, for: event.targets[0])
                        rejections.append("")
                    } catch {
                        // What `herald run` reports as the failed outcome's reason.
                        rejections.append(error.description)
                    }
                }
                return (results, rejections)
            }
        }
        #expect(results.count == 4 && rejections.count == 4)
        guard results.count == 4, rejections.count == 4 else { return }
        for (result, rejection) in zip(results.prefix(3), rejections) {
            #expect(OutcomeStatus.of(result) == "failed" && result.reason == "InvalidHeader", "\(result)")
            #expect(rejection.hasPrefix("InvalidHeader: "), "\(rejection)")
            #expect(
                !rejection.contains("forged") && !rejection.contains("\r") && !rejection.contains("\n"),
                "the value is not echoed: \(rejection)")
        }
        #expect(
            rejections[0].contains("event field collapse_id") && rejections[0].contains("header 'apns-collapse-id'"),
            "\(rejections[0])")
        #expect(rejections[0].contains("CR (0x0D)"), "\(rejections[0])")
        #expect(rejections[1].contains("event field apns.headers.apns-priority"), "\(rejections[1])")
        #expect(rejections[2].contains("a name in event field apns.headers"), "\(rejections[2])")
        #expect(rejections[3].isEmpty && OutcomeStatus.of(results[3]) == "delivered", "\(results[3])")
        #expect(handler.requests.count == 1, "only the valid event was sent")
        let seen = handler.requests.first?.headers ?? []
        #expect(seen.first { $0.name == "apns-collapse-id" }?.value == "chat-42")
        #expect(
            !seen.contains { $0.name == "authorization" }, "certificate auth sends none, and none was injected: \(seen)"
        )
    }
}

/// APNs events and an `APNsProvider` on a real client, for the transport tests.
enum APNsEvents {
    static let token = String(repeating: "ab", count: 32)

    static func event(collapseID: String? = nil, overrides: [String: String] = [:]) -> Event {
        var event = Event(
            id: "evt-1", app: "chat", targets: [Target(provider: .apns, address: .token(token))],
            notification: Event.Notification(title: "Hi", body: "Hello"), collapseID: collapseID)
        event.apns = overrides.isEmpty ? nil : APNsOverrides(headers: overrides)
        return event
    }

    /// A provider with certificate authentication (the server does not ask
    /// for the certificate) on a client of `engine` trusting `pki`.
    static func withProvider<R: Sendable>(
        pki: TestPKI, port: Int, engine: HTTPClientConfiguration.Engine, _ body: (APNsProvider) async throws -> R
    ) async throws -> R {
        let identity = try await pki.makeClientCertificate(commonName: "com.example.chat.\(engine)")
        let configuration = APNsProviderConfiguration(
            bundleID: "com.example.chat", baseURL: "https://127.0.0.1:\(port)",
            authentication: .certificate(path: identity.pkcs12Path, password: identity.pkcs12Password),
            caFile: pki.caCertificatePath, connections: 1, engine: engine)
        return try await HTTPClient.withClient(
            configuration: configuration.httpClientConfiguration, logger: Fixtures.logger
        ) { client in
            try await body(APNsProvider(configuration: configuration, client: client, logger: Fixtures.logger))
        }
    }
}

/// The outcome status a result becomes, as a word.
enum OutcomeStatus {
    static func of(_ result: DeliveryResult) -> String {
        switch result.status {
        case .delivered: "delivered"
        case .invalidToken: "invalid_token"
        case .failed: "failed"
        }
    }
}
