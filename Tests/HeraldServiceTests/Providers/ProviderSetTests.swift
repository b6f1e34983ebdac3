import Foundation
import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldHTTPClient
@testable import HeraldService
import HeraldWebPush
import Testing

/// Which HTTP/2 clients (loop threads) the providers get: one per TLS identity.
@Suite struct ProviderSetTests {
    @Test func tokenAuthenticatedAPNsAndFCMAppsWithOneTrustRootShareOneClient() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: """
                  shop:
                    apns:
                      team_id: \(SimulatorHarness.teamID)
                      key_id: \(SimulatorHarness.keyID)
                      key_file: \(simulator.apnsKeyFile)
                      topic: com.example.shop
                      endpoint: \(simulator.baseURL)
                      ca_file: \(simulator.pki.caCertificatePath)
                      connections: 4
                    fcm:
                      service_account_file: \(simulator.serviceAccountFile)
                      endpoint: \(simulator.baseURL)
                      ca_file: \(simulator.pki.caCertificatePath)
                """)
        let providers = ProviderSet.make(config: try config.load(), logger: Logger(label: "test", level: .error))
        for app in ["chat", "shop"] {
            #expect(
                providers.provider(app: app, .apns) != nil && providers.provider(app: app, .fcm) != nil, "\(app) loaded"
            )
        }
        #expect(providers.unavailable.isEmpty)
        #expect(providers.clientCount == 1, "two apps × two providers, one trust root: one client")
    }

    @Test func aCertificateAuthenticatedAppAndAnotherTrustRootEachGetTheirOwnClient() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let client = try await simulator.pki.makeClientCertificate(commonName: "com.example.legacy")
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: """
                  legacy:
                    apns:
                      certificate_file: \(client.pkcs12Path)
                      certificate_password: \(client.pkcs12Password)
                      topic: com.example.legacy
                      endpoint: \(simulator.baseURL)
                      ca_file: \(simulator.pki.caCertificatePath)
                  system:
                    fcm:
                      service_account_file: \(simulator.serviceAccountFile)
                      endpoint: \(simulator.baseURL)
                """)
        let providers = ProviderSet.make(config: try config.load(), logger: Logger(label: "test", level: .error))
        #expect(providers.provider(app: "legacy", .apns) != nil && providers.provider(app: "system", .fcm) != nil)
        #expect(providers.clientCount == 3, "chat's shared client, legacy's certificate, system's trust store")
    }

    @Test func webPushAppsShareOneClientEachWithItsShareOfTheWindowAndAShortConnectTimeout() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator, timeout: "10s")
                + "\n  shop:\n" + ServiceConfig.webPushSection(simulator: simulator, timeout: "10s"))
        let providers = ProviderSet.make(config: try config.load(), logger: Logger(label: "test", level: .error))
        #expect(providers.unavailable.isEmpty)
        let webPush = providers.clients.filter { $0.configuration.acceptsHTTP1 }
        #expect(webPush.count == 1, "chat's and shop's Web Push share a client")
        let window = HTTPClientConfiguration().maxInFlightRequests
        #expect(
            webPush.first?.configuration.fairness
                == HTTPClientFairness(tenantWindow: window, maxQueuedPerOrigin: WebPushSettings.maxQueuedPerOrigin))
        #expect(webPush.first?.configuration.maxInFlightRequests == 2 * window)
        #expect(
            webPush.first?.configuration.connectTimeout == .seconds(5),
            "a hung connect frees its slot before the 10s timeout")
        #expect(
            webPush.first?.configuration.maxResponseBodyBytes == WebPushSettings.maxAnswerBytes,
            "a push service's answer is short")
        for app in ["chat", "shop"] {
            let provider = providers.provider(app: app, .webpush) as? WebPushProvider
            #expect(provider?.configuration.tenant == app, "\(app)'s requests are counted in its own share")
        }
        #expect(
            providers.clients.filter { !$0.configuration.acceptsHTTP1 }.allSatisfy { $0.configuration.fairness == nil },
            "APNs and FCM keep one queue")
    }

    @Test func aFairClientsSharesFitItsWindowTogether() {
        let window = HTTPClientConfiguration().maxInFlightRequests
        let one = SharedHTTPClients.tenantWindow(of: ["chat": window], clientWindow: window)
        let two = SharedHTTPClients.tenantWindow(of: ["chat": window, "shop": window], clientWindow: 2 * window)
        var many: [String: Int] = [:]
        for index in 0..<5 { many["app\(index)"] = window }
        let five = SharedHTTPClients.tenantWindow(of: many, clientWindow: SharedHTTPClients.maxInFlight)
        #expect(one == window && two == window, "each app has the window it would have alone")
        #expect(five == SharedHTTPClients.maxInFlight / 5, "five apps' windows exceed the client's: equal parts of it")
    }

    @Test func theSharedClientTakesTheLargestConnectionCountTheLongestTimeoutAndAWindowPerApp() {
        var shared = SharedHTTPClients()
        let tls = HTTPClientTLSConfiguration(caFile: "/ca.pem")
        shared.register(
            HTTPClientConfiguration(maxConnectionsPerHost: 2, requestTimeout: .seconds(10), tls: tls), app: "chat")
        shared.register(
            HTTPClientConfiguration(maxConnectionsPerHost: 4, requestTimeout: .seconds(5), tls: tls), app: "chat")
        shared.register(
            HTTPClientConfiguration(
                maxConnectionsPerHost: 1, requestTimeout: .seconds(30), tls: HTTPClientTLSConfiguration()), app: "chat")
        let merged = shared.configuration(for: HTTPClientConfiguration(tls: tls))
        let window = HTTPClientConfiguration().maxInFlightRequests
        #expect(merged?.maxConnectionsPerHost == 4)
        #expect(merged?.requestTimeout == .seconds(10))
        #expect(merged?.maxInFlightRequests == window, "one app's APNs and FCM share one window")
        shared.register(HTTPClientConfiguration(tls: tls), app: "shop")
        #expect(
            shared.configuration(for: HTTPClientConfiguration(tls: tls))?.maxInFlightRequests == 2 * window,
            "each sharing app brings its window")
        for index in 0..<20 { shared.register(HTTPClientConfiguration(tls: tls), app: "app\(index)") }
        #expect(
            shared.configuration(for: HTTPClientConfiguration(tls: tls))?.maxInFlightRequests
                == SharedHTTPClients.maxInFlight)
        #expect(shared.configuration(for: HTTPClientConfiguration())?.maxConnectionsPerHost == 1)
        #expect(shared.clients(logger: Logger(label: "test", level: .error)).count == 2)
        shared.register(HTTPClientConfiguration(tls: tls, engine: .libcurl), app: "legacy")
        #expect(
            shared.configuration(for: HTTPClientConfiguration(tls: tls, engine: .libcurl))?.maxInFlightRequests
                == window,
            "a provider on another engine gets its own client, with its own window")
        #expect(shared.clients(logger: Logger(label: "test", level: .error)).count == 3)
    }

    /// An app allowed internal addresses never lends its client (and so its connections) to one that is not.
    @Test func clientsWithAnotherEgressPolicyAreNotShared() {
        var shared = SharedHTTPClients()
        var restricted = HTTPClientConfiguration(tls: HTTPClientTLSConfiguration(caFile: "/ca.pem"), engine: .libcurl)
        restricted.acceptsHTTP1 = true
        restricted.egress = .publicAddressesOnly
        var open = restricted
        open.egress = .unrestricted
        shared.register(restricted, app: "web")
        shared.register(open, app: "simulated")
        #expect(shared.configuration(for: restricted)?.egress == .publicAddressesOnly)
        #expect(shared.configuration(for: open)?.egress == .unrestricted)
        #expect(shared.clients(logger: Logger(label: "test", level: .error)).count == 2)
    }
}

/// `amqp:` settings that reach the connection.
@Suite struct AMQPConfigurationMappingTests {
    @Test func ackDelayFromTheConfigReachesTheConnection() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        #expect(try config.load().amqpConfiguration().ackDelay == .milliseconds(5), "the default")
        let text = try String(contentsOfFile: config.file, encoding: .utf8)
        try text.replacingOccurrences(of: "  heartbeat: 10s", with: "  heartbeat: 10s\n  ack_delay: 0s")
            .write(toFile: config.file, atomically: true, encoding: .utf8)
        #expect(try config.load().amqpConfiguration().ackDelay == .zero)
    }

    @Test func ioPacingReachesTheConnectionAndEverySharedHTTPClient() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        #expect(try config.load().amqpConfiguration().pacingWindow == .milliseconds(2), "the default")
        let text = try String(contentsOfFile: config.file, encoding: .utf8)
        try (text + "\nio_pacing: 5ms\n").write(toFile: config.file, atomically: true, encoding: .utf8)
        let loaded = try config.load()
        #expect(try loaded.amqpConfiguration().pacingWindow == .milliseconds(5))
        let windows = ProviderSet.make(config: loaded, logger: Logger(label: "test", level: .error)).clientPacingWindows
        #expect(!windows.isEmpty && windows.allSatisfy { $0 == .milliseconds(5) }, "\(windows)")
    }

    /// `amqp.consumer_timeout` (default 30m) reaches the events queue's
    /// arguments and, for a quorum queue, its consumer's; `0s` sets neither.
    @Test func theConsumerTimeoutReachesTheEventsQueueAndItsConsumer() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let quorum = try ServiceConfig(simulator: simulator, queueType: "quorum").load().topology
        #expect(quorum.consumerTimeout == .seconds(1800))
        #expect(quorum.eventsQueueArguments["x-consumer-timeout"] == .int(1_800_000))
        #expect(quorum.eventsConsumerArguments == ["x-consumer-timeout": .int(1_800_000)])
        let classic = try ServiceConfig(simulator: simulator, queueType: "classic", amqpExtra: "consumer_timeout: 1h")
            .load().topology
        #expect(classic.eventsQueueArguments["x-consumer-timeout"] == .int(3_600_000))
        #expect(classic.eventsConsumerArguments == [:], "RabbitMQ 4.3 refuses it on a classic queue's consumer")
        let off = try ServiceConfig(simulator: simulator, queueType: "quorum", amqpExtra: "consumer_timeout: 0s").load()
            .topology
        #expect(off.consumerTimeout == nil)
        #expect(off.eventsQueueArguments["x-consumer-timeout"] == nil)
        #expect(off.eventsConsumerArguments == [:])
    }

    /// Each address gets its own TLS files (the node's where it names them,
    /// else the section's), resolved against the config file's directory.
    @Test func eachAddressReachesTheConnectionWithItsOwnTLSFiles() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let directory = (config.file as NSString).deletingLastPathComponent
        for name in ["ca.pem", "node2-ca.pem", "client.pem", "client.key"] {
            try "x".write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/" + name)
        }
        let text = try String(contentsOfFile: config.file, encoding: .utf8)
        try text.replacingOccurrences(
            of: "  url: \(ServiceConfig.brokerURL)\n",
            with: """
                  ca_file: ca.pem
                  urls:
                    - amqps://u:p@node1:5671/%2f
                    - {url: "amqps://v:q@node2:5671/%2f", ca_file: node2-ca.pem, cert_file: client.pem, key_file: client.key}

                """
        ).write(toFile: config.file, atomically: true, encoding: .utf8)
        let addresses = try config.load().amqpConfiguration().addresses
        #expect(addresses.map(\.url.node) == ["node1:5671", "node2:5671"])
        #expect(
            addresses.map(\.tls) == [
                AMQPTLSOptions(caFile: directory + "/ca.pem"),
                AMQPTLSOptions(
                    caFile: directory + "/node2-ca.pem", certificateFile: directory + "/client.pem",
                    keyFile: directory + "/client.key"),
            ])
    }
}
