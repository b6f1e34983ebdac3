import Foundation
import HeraldCLI
import Testing

/// `herald check` and `herald run` read `amqp.url` / `amqp.urls` with one
/// parser (`AMQPURL`): an address one refuses, the other refuses with the same
/// line, and an address either accepts is shown with its password masked.
@Suite("AMQP addresses: herald check and herald run agree")
struct AMQPAddressCheckTests {
    /// A config with `amqp` as its `amqp:` section and one FCM app, in a fresh
    /// directory the caller removes. The service account only looks right:
    /// these configs fail before credentials are loaded.
    func configDirectory(amqp: String) throws -> String {
        let dir = NSTemporaryDirectory() + "herald-amqp-address-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
        amqp:
          \(amqp)
        apps:
          chat:
            fcm:
              project_id: herald-dev
              service_account_file: sa.json
        """.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        try
            #"{"client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n", "private_key_id": "k", "token_uri": "https://oauth2.googleapis.com/token"}"#
            .write(toFile: dir + "/sa.json", atomically: true, encoding: .utf8)
        return dir
    }

    /// The `amqp:` line listing `urls`.
    func urlsLine(_ urls: [String]) -> String { "urls: [\(urls.map { "'\($0)'" }.joined(separator: ", "))]" }

    /// `herald <command> --config` of a config whose `amqp:` section is
    /// `amqp`: status, stdout and stderr (the directory written as DIR).
    func herald(_ command: String, amqp: String) async throws -> (Int32, String, String) {
        let dir = try configDirectory(amqp: amqp)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            [command, "--config", dir + "/config.yaml"], environment: [:], console: console)
        return (status, console.stdout, console.stderr.replacingOccurrences(of: dir, with: "DIR"))
    }

    /// Each of these once passed `herald check` (Foundation's URLComponents)
    /// and was refused by `herald run` (`AMQPURL`), or the other way round.
    @Test(arguments: [
        ("amqp://broker:0", "amqp://broker:0", "port must be 1-65535"),
        ("amqp://broker:", "amqp://broker:", "port must be 1-65535"),
        ("amqp://broker:99999", "amqp://broker:99999", "port must be 1-65535"),
        ("amqp://broker/a/b", "amqp://broker/a/b", "vhost must be one path segment (write / as %2f)"),
        ("amqp://broker/%zz", "amqp://broker/%zz", "bad percent-encoding in vhost"),
        ("amqp://broker/%C3%28", "amqp://broker/%C3%28", "bad percent-encoding in vhost"),
        ("amqp://herald:s3cret%zz@broker", "amqp://herald:***@broker", "bad percent-encoding in password"),
        (
            "amqp://broker:5672#frag", "amqp://broker:5672#frag",
            "'#' has no place in an AMQP URL (a # in a user name or password is written %23)"
        ),
        // URLComponents read host 'broker' and a fragment; AMQPURL read user 'broker#u', password 's3cret', host 'elsewhere'.
        (
            "amqp://broker#u:s3cret@elsewhere", "amqp://broker#u:***@elsewhere",
            "'#' has no place in an AMQP URL (a # in a user name or password is written %23)"
        ),
        (
            "amqps://herald:s3cret@broker?cacertfile=/etc/ca.pem", "amqps://herald:***@broker?cacertfile=/etc/ca.pem",
            "a query (?...) is not read, so its parameters would not take effect (a ? in a user name or password is written %3F)"
        ),
        ("amqp://", "amqp://", "the URL names no host"),
        ("amqp://herald:s3cret@:5672", "amqp://herald:***@:5672", "the URL names no host"),
        ("amqp://bro ker", "amqp://bro ker", "the host name has a character host names cannot have"),
        ("amqp://[::1]]", "amqp://[::1]]", "junk after IPv6 host"),
        ("http://broker", "http://broker", "scheme must be amqp:// or amqps://"),
        // A / in a password ends the authority: refused (the port is 'pa'), and the password is still masked.
        ("amqp://herald:pa/s3cret@broker", "amqp://herald:***@broker", "port must be 1-65535"),
    ])
    func checkAndRunRefuseTheAddressWithTheSameLine(url: String, shown: String, reason: String) async throws {
        let expected = """
            DIR/config.yaml: amqp.urls[1]: '\(shown)' is not a usable AMQP URL: \(reason)
            DIR/config.yaml: 1 error
            """
        for command in ["check", "run"] {
            let (status, stdout, stderr) = try await herald(
                command, amqp: urlsLine(["amqp://guest:guest@127.0.0.1:5672/%2f", url]))
            #expect(status == 1, "herald \(command)")
            #expect(stdout == "", "herald \(command)")
            #expect(stderr == expected, "herald \(command)")
            #expect(!stderr.contains("s3cret"), "herald \(command) prints no password")
        }
    }

    @Test func everyRefusedAddressIsReportedInOneRun() async throws {
        let (status, _, stderr) = try await herald(
            "check", amqp: urlsLine(["amqp://node1:0", "amqp://node2", "amqp://node3/a/b"]))
        #expect(status == 1)
        #expect(
            stderr == """
                DIR/config.yaml: amqp.urls[0]: 'amqp://node1:0' is not a usable AMQP URL: port must be 1-65535
                DIR/config.yaml: amqp.urls[2]: 'amqp://node3/a/b' is not a usable AMQP URL: vhost must be one path segment (write / as %2f)
                DIR/config.yaml: 2 errors
                """)
    }

    /// `amqp.url`, an entry of `amqp.urls`, or the `url` of an entry written as a mapping.
    @Test(arguments: [
        ("url: 'amqp://herald:s3cret@broker:70000/%2f'", "amqp.url: 'amqp://herald:***@broker:70000/%2f'"),
        ("urls: [{url: 'amqps://herald:s3cret@broker:0'}]", "amqp.urls[0].url: 'amqps://herald:***@broker:0'"),
    ])
    func aRefusedAddressIsNamedWhereItIsWritten(amqp: String, named: String) async throws {
        let (status, _, stderr) = try await herald("check", amqp: amqp)
        #expect(status == 1)
        #expect(
            stderr
                == "DIR/config.yaml: \(named) is not a usable AMQP URL: port must be 1-65535\nDIR/config.yaml: 1 error")
    }

    /// An unescaped @ or : in a password is part of it (the user info ends at
    /// the last @, the user name at the first :), and masked where shown.
    @Test func aPasswordWithAtAndColonIsAcceptedAndMasked() async throws {
        let keys = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let dir = try configDirectory(
            amqp: urlsLine(["amqp://herald:s3@c:ret@broker/%2f", "amqps://[::1]:5671/prod%2Feu"]))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.removeItem(atPath: dir + "/sa.json")
        try FileManager.default.copyItem(atPath: keys + "/fcm-service-account.json", toPath: dir + "/sa.json")
        try FileManager.default.removeItem(atPath: dir + "/sa.json")
        try FileManager.default.copyItem(atPath: keys + "/fcm-service-account.json", toPath: dir + "/sa.json")
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["check", "--config", dir + "/config.yaml"], environment: [:], console: console)
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout.contains(
                "  amqp: amqp://herald:***@broker:5672/%2F, amqps://guest:***@[::1]:5671/prod%2Feu, queue"),
            "\(console.stdout)")
        #expect(!console.stdout.contains("s3@c:ret"))
    }
}
