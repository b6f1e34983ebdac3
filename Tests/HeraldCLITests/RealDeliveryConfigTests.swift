import Foundation
import HeraldCLI
import HeraldTestSupport
import Testing

/// The README's "Real delivery" paragraph, held to what `herald check` does with the repository's
/// config.yaml: three environment variables move it from the simulator to Apple's and Google's hosts,
/// and an empty one does not (it means the default, the simulator).
@Suite struct RealDeliveryConfigTests {

    /// `herald check` of the repository's config.yaml with the dev keys and `extra` in the environment.
    func check(_ extra: [String: String]) async throws -> (Int32, CapturedConsole) {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        var environment = [
            "APNS_KEY_FILE": keys + "/apns-AuthKey.p8", "FCM_SERVICE_ACCOUNT_FILE": keys + "/fcm-service-account.json",
            "HERALD_CA_FILE": keys + "/ca.pem", "VAPID_KEY_FILE": keys + "/vapid.pem",
        ]
        environment.merge(extra) { _, new in new }
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["check", "--config", repositoryRoot + "/config.yaml"], environment: environment, console: console)
        return (status, console)
    }

    @Test func endpointVariablesNameApplesAndGooglesHosts() async throws {
        let (status, console) = try await check([
            "APNS_ENDPOINT": "https://api.push.apple.com", "FCM_ENDPOINT": "https://fcm.googleapis.com",
            "HERALD_CA_FILE": "/etc/ssl/certs/ca-certificates.crt",
        ])
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout.contains(
                "production, https://api.push.apple.com), fcm (project herald-dev, https://fcm.googleapis.com)"))
        #expect(!console.stdout.contains("127.0.0.1:2197"))
    }

    @Test func anEmptyEndpointVariableMeansTheSimulator() async throws {
        let (status, console) = try await check(["APNS_ENDPOINT": "", "FCM_ENDPOINT": ""])
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout.contains(
                "production, https://127.0.0.1:2197), fcm (project herald-dev, https://127.0.0.1:2197)"))
    }
}
