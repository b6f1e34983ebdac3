import Foundation
import HeraldCLI
import HeraldCrypto
import Testing

/// `herald check --online` against the simulator: accepted credentials pass,
/// refused ones are named, an unreachable endpoint is reported.
@Suite struct OnlineCheckTests {
    func check(_ file: String) async -> (Int32, String) {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["check", "--config", file, "--online"], environment: [:], console: console)
        return (status, console.stdout + console.stderr)
    }

    @Test func acceptedCredentialsPass() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // A bound reached only if the simulator never answers: a loaded full suite can take seconds per request.
        let config = try ServiceConfig(simulator: simulator, providerTimeout: "30s")
        let (status, output) = await check(config.file)
        #expect(status == 0, "\(output)")
        #expect(output.contains("  online: chat/apns: ok: credentials accepted"))
        #expect(output.contains("  online: chat/fcm: ok: OAuth access token obtained"))
    }

    @Test func aKeyAppleDoesNotKnowIsRefused() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // A bound reached only if the simulator never answers: a loaded full suite can take seconds per request.
        let config = try ServiceConfig(simulator: simulator, providerTimeout: "30s")
        // Replace the APNs key with another valid P-256 key the simulator has never seen.
        try PrivateKey.generateP256().pkcs8PEM().write(toFile: simulator.apnsKeyFile, atomically: true, encoding: .utf8)
        let (status, output) = await check(config.file)
        #expect(status == 1)
        #expect(
            output.contains("  online: chat/apns: FAILED: credentials refused: 403 InvalidProviderToken"), "\(output)")
        #expect(output.contains("  online: chat/fcm: ok:"))
    }

    @Test func anUnreachableEndpointIsReported() async throws {
        let simulator = try await SimulatorHarness()
        let config = try ServiceConfig(simulator: simulator)
        await simulator.stopServer()
        let (status, output) = await check(config.file)
        #expect(status == 1)
        #expect(output.contains("  online: chat/apns: FAILED: could not reach the endpoint: "), "\(output)")
        #expect(output.contains("  online: chat/fcm: FAILED: OAuth exchange failed: "))
        simulator.stop()
    }
}
