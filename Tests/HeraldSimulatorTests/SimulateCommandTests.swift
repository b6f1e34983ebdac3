import Foundation
import HeraldAPNs
import HeraldCLI
import HeraldCore
import HeraldHTTPClient
import Testing

/// `herald simulate` run in-process: flags, generated TLS material, recording.
@Suite struct SimulateCommandTests {
    /// Waits (bounded) until the command prints its listening line; returns the port.
    func listeningPort(_ console: CapturedConsole) async throws -> Int {
        for _ in 0..<500 {
            if let line = console.stdout.split(separator: "\n").first(where: { $0.contains("listening on https://127.0.0.1:") }),
               let port = Int(line.split(separator: ":").last ?? "") {
                return port
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }

    @Test func simulateGeneratesItsCAVerifiesTokensAndRecordsUntilCancelled() async throws {
        let directory = try Fixtures.temporaryDirectory()
        let (key, _) = try Fixtures.key()
        try key.pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let dead = String(repeating: "dd", count: 32)
        let console = CapturedConsole()
        let command = Task {
            await HeraldCommandLine().run([
                "simulate", "--listen", "127.0.0.1:0", "--tls-dir", directory + "/tls", "--apns-key", directory + "/AuthKey.p8",
                "--key-id", Fixtures.keyID, "--team-id", Fixtures.teamID, "--topic", Fixtures.bundleID, "--dead-token", dead,
                "--record", directory + "/record.jsonl",
            ], environment: [:], console: console)
        }
        let port = try await listeningPort(console)
        #expect(console.stdout.contains("CA certificate (give it to clients as ca_file): \(directory)/tls/ca.pem"))
        let configuration = APNsProviderConfiguration(
            bundleID: Fixtures.bundleID, baseURL: "https://localhost:\(port)", authentication: try tokenAuth(key).0,
            caFile: directory + "/tls/ca.pem")
        let (ok, gone) = try await HTTPClient.withClient(configuration: configuration.httpClientConfiguration, logger: Fixtures.logger) {
            let provider = APNsProvider(configuration: configuration, client: $0, logger: Fixtures.logger)
            return (await deliver(provider, event()), await deliver(provider, event(token: dead)))
        }
        command.cancel()
        #expect(await command.value == 0)
        #expect(try ok.get().status == .delivered)
        #expect(try gone.get().reason == "Unregistered")
        let lines = try String(contentsOfFile: directory + "/record.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try JSONValue.parse(String(lines[0]))["target"]?.stringValue == Fixtures.token)
    }
}
