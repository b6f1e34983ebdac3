import HeraldCLI
import HeraldCore
import HeraldCrypto
import HeraldHTTPClient
import HeraldSimulator
import HeraldTestSupport
import HeraldWebPush
import Testing

/// `herald simulate --webpush-subscriptions N`: subscriptions printed at start, usable as printed.
extension SimulateCommandTests {
    @Test func simulatePrintsWebPushSubscriptionsThatAcceptMessages() async throws {
        let directory = try makeTemporaryDirectory("sim")
        let console = CapturedConsole()
        let command = Task {
            await HeraldCommandLine().run(
                [
                    "simulate", "--listen", "127.0.0.1:0", "--tls-dir", directory + "/tls", "--webpush-subscriptions",
                    "2",
                ], environment: [:], console: console)
        }
        let port = try await listeningPort(console)
        // The subscriptions are printed after the listening line: wait for both.
        var printed: [JSONValue] = []
        _ = await eventually(timeout: .seconds(60)) {
            printed = console.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
                try? JSONValue.parse(String($0))
            }
            return printed.count == 2
        }
        #expect(
            console.stdout.contains("  Web Push: push service at https://127.0.0.1:\(port)/push/<id>"),
            "\(console.stdout)")
        #expect(console.stderr == "", "no warning on a loopback address: \(console.stderr)")
        let subscriptions = try printed.map { try WebPushSubscription(json: $0) }
        #expect(subscriptions.count == 2)
        #expect(Set(subscriptions.map(\.endpoint)).count == 2)
        let subscription = try #require(subscriptions.first)
        #expect(subscription.origin == "https://127.0.0.1:\(port)")

        let signer = try VAPIDSigner(key: PrivateKey.generateP256(), subject: VAPIDSubject("mailto:push@example.com"))
        let token = try signer.token(
            audience: subscription.origin, expiresAt: Timestamp(seconds: Timestamp.now().seconds) + .seconds(600))
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: .seconds(10),
            tls: HTTPClientTLSConfiguration(caFile: directory + "/tls/ca.pem"))
        let response = try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) {
            client in
            try await client.send(
                HTTPClientRequest(
                    url: subscription.endpoint,
                    headers: [
                        ("ttl", "30"), ("content-encoding", "aes128gcm"),
                        ("authorization", signer.authorization(token: token)),
                    ],
                    body: try WebPushEncryption.encrypt(Array(#"{"hello":"world"}"#.utf8), for: subscription)))
        }
        #expect(response.status == 201)
        let delivered = try await curl(
            baseURL: subscription.origin, caFile: directory + "/tls/ca.pem", "GET",
            "/_herald/delivered?provider=webpush")
        #expect(
            delivered.answer?.json?["delivered"]?.arrayValue?.first?["payload"] == (["hello": "world"] as JSONValue),
            "\(delivered.output)")
        command.cancel()
        #expect(await command.value == 0)
    }

    @Test func simulateRefusesANumberOfWebPushSubscriptionsThatIsNotANumber() async {
        let console = CapturedConsole()
        #expect(
            await HeraldCommandLine().run(
                ["simulate", "--webpush-subscriptions", "two"], environment: [:], console: console) == 64)
        #expect(
            console.stderr.hasPrefix(
                "herald simulate: --webpush-subscriptions: expected a positive number, found 'two'\n"),
            "\(console.stderr)")
    }
}

/// The `webpush:` section of the simulator's YAML, and the origin its subscriptions get.
@Suite struct WebPushSimulatorSettingsTests {
    @Test func subscriptionsComeFromYAMLAndTheOriginFromTheListenAddress() throws {
        let file = try makeTemporaryDirectory("sim") + "/sim.yaml"
        try "listen: 0.0.0.0:2197\nwebpush:\n  subscriptions: 3\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let settings = try SimulatorSettings.load(file: file, environment: [:])
        #expect(settings.section(SimulatorSettings.WebPush.self) == SimulatorSettings.WebPush(subscriptions: 3))
        #expect(
            try settings.origin(port: 2197) == "https://127.0.0.1:2197", "a wildcard address is reached on loopback")
        #expect(try SimulatorSettings(listen: "[::1]:0").origin(port: 4433) == "https://[::1]:4433")
        #expect(try SimulatorSettings(listen: "localhost:0").origin(port: 4433) == "https://localhost:4433")
    }
}
