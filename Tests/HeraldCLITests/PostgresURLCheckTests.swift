import Foundation
import HeraldCLI
import Testing

/// A `registry.url` libpq cannot read: `herald check` and `herald run` both
/// refuse it naming the key, and neither shows its password in any form
/// (libpq's own message would quote it).
@Suite struct PostgresURLCheckTests {
    @Test(arguments: [
        ("pa%zz", "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"),
        ("Sup3r%Secret", "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"),
        ("Sup3r%00Secret", "the password holds %00, which libpq refuses"),
    ])
    func checkAndRunRefuseItWithoutThePassword(password: String, problem: String) async throws {
        let dir = NSTemporaryDirectory() + "herald-postgres-url-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        apps:
          chat:
            fcm:
              project_id: herald-dev
              service_account_file: sa.json
        registry:
          backend: postgres
          url: postgres://herald:${DB_PASSWORD}@127.0.0.1:5433/herald_test
        """.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        for command in ["check", "run"] {
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                [command, "--config", dir + "/config.yaml"],
                environment: ["DB_PASSWORD": password], console: console)
            let output = (console.stdout + console.stderr).replacingOccurrences(of: dir, with: "DIR")
            #expect(status == 1, "herald \(command)")
            #expect(
                output.contains(
                    "registry.url: 'postgres://herald:***@127.0.0.1:5433/herald_test' cannot be used: \(problem)"),
                "herald \(command): \(output)")
            for form in [password, password.replacingOccurrences(of: "%00", with: "\0"), "Sup3r", "pa%"] {
                #expect(!output.contains(form), "herald \(command) shows the password: \(output)")
            }
        }
    }
}
