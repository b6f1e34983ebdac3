import Foundation
import HeraldCLI
import HeraldTestSupport
import Testing

/// The repository's root, for its scripts and files.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// Throwaway simulator keys made by the repository's own script, in a fresh directory
/// (run off the cooperative pool: key generation takes a moment).
func devKeys() async throws -> String {
    let dir = NSTemporaryDirectory() + "herald-devkeys-\(UInt64.random(in: 0...UInt64.max))"
    let run = try await runTool(repositoryRoot + "/scripts/dev-keys", [dir])
    #expect(run.status == 0, "\(run.output)")
    return dir
}

/// Runs `herald simulate` in-process on a free port with the dev keys in `keys`
/// (their CA and server certificate, their service account) while `body` runs.
func withSimulator(keys: String, extraArguments: [String] = [], _ body: (_ port: Int) async throws -> Void) async throws
{
    let console = CapturedConsole()
    let simulate = Task {
        await HeraldCommandLine().run(
            [
                "simulate", "--listen", "127.0.0.1:0", "--tls-dir", keys, "--fcm-service-account",
                keys + "/fcm-service-account.json",
            ]
                + extraArguments,
            environment: [:], console: console)
    }
    var port: Int?
    _ = await eventually(timeout: .seconds(60)) {
        let line = console.stdout.split(separator: "\n").first { $0.contains("listening on https://127.0.0.1:") }
        port = line.flatMap { Int($0.split(separator: ":").last ?? "") }
        return port != nil
    }
    let outcome: Result<Void, any Error>
    do {
        try await body(try #require(port, "herald simulate did not start: \(console.stderr)"))
        outcome = .success(())
    } catch {
        outcome = .failure(error)
    }
    simulate.cancel()
    #expect(await simulate.value == 0)
    try outcome.get()
}
