import Foundation
import HeraldTestSupport
import Testing

/// `herald run`, the real executable, with a PostgreSQL registry it cannot
/// use: it exits 1 saying why, and its log holds the password in no form —
/// neither as written, nor percent-decoded, nor in part.
@Suite struct RegistryPasswordProcessTests {
    @Test(arguments: [
        // libpq would refuse it, quoting it: refused first, naming registry.url.
        (
            "postgres://herald:Sup3r%Secret@127.0.0.1:1/herald", ["Sup3r%Secret", "Sup3r"],
            "registry.url: 'postgres://herald:***@127.0.0.1:1/herald' cannot be used"
        ),
        // Read, then the connection is refused: libpq's message, scrubbed.
        (
            "postgres://herald:Sup3r%41Secret@127.0.0.1:1/herald", ["Sup3r%41Secret", "Sup3rASecret", "Sup3r"],
            "PostgreSQL (postgres://herald:***@127.0.0.1:1/herald)"
        ),
    ])
    func aRegistryItCannotUseStopsItWithoutThePasswordInItsLog(url: String, forms: [String], said: String) async throws
    {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator, logLevel: "info",
            topLevelExtra: "registry: {backend: postgres, url: \"\(url)\"}")
        let child = try ChildProcess.heraldRun(config: config.file)
        defer { child.kill() }
        let exit = await child.waitForExit(timeout: .seconds(60))
        #expect(exit == .exited(1), "\(child.tail())")
        let log = child.output
        #expect(log.contains(said), "\(child.tail())")
        for form in forms {
            #expect(!log.contains(form), "the log holds '\(form)': \(child.tail())")
        }
    }
}
