import Foundation
import HeraldAMQP
@testable import HeraldCLI
import HeraldTestSupport
import Testing

/// What every command does alike: a usage error is two lines (the problem
/// and where the help is), a broker that cannot be reached is one line
/// naming it without its password and exit status 69, `--timeout` bounds the
/// wait for the broker, and no error text carries the retry classification.
@Suite struct CommandLineBehaviourTests {
    func herald(_ arguments: [String]) async -> (status: Int32, console: CapturedConsole) {
        let console = CapturedConsole()
        return (await HeraldCommandLine().run(arguments, environment: [:], console: console), console)
    }

    @Test func aUsageErrorIsTheProblemAndTheHelpHint() async {
        let cases: [(arguments: [String], hint: String)] = [
            (["chek"], "Run 'herald --help' for the commands."),
            (["check", "--confg", "x.yaml"], "Run 'herald check --help' for usage."),
            (["dead"], "Run 'herald dead --help' for usage."),
            (["dead", "lst"], "Run 'herald dead --help' for usage."),
            (["dead", "purge", "--json"], "Run 'herald dead --help' for usage."),
            (["registry", "add", "extra"], "Run 'herald registry --help' for usage."),
            (["tail", "--count", "0"], "Run 'herald tail --help' for usage."),
            (["send", "--provider", "apns"], "Run 'herald send --help' for usage."),
            (["publish", "events.json"], "Run 'herald publish --help' for usage."),
            (["init", "--p8"], "Run 'herald init --help' for usage."),
            (["completion", "fish"], "Run 'herald completion --help' for usage."),
            (["version", "now"], "Run 'herald version --help' for usage."),
        ]
        for (arguments, hint) in cases {
            let (status, console) = await herald(arguments)
            #expect(status == 64, "\(arguments)")
            let lines = console.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2, "herald \(arguments.joined(separator: " ")):\n\(console.stderr)")
            #expect(lines.first?.hasPrefix("herald") == true && lines.last.map(String.init) == hint, "\(lines)")
            #expect(console.stdout.isEmpty)
        }
    }

    /// Every command that needs the broker, with the broker down (nothing
    /// listens on port 1), whether the broker comes from the config or from
    /// `--amqp`: one line naming the URL with its password masked, exit 69.
    @Test func everyBrokerCommandReportsABrokerThatIsDownAlike() async throws {
        let directory = try makeTemporaryDirectory("broker-down")
        let down = "amqp://guest:s3cret-pw@127.0.0.1:1/"
        try BrokerCommandFixture.writeConfig(prefix: "broker-down", url: down, to: directory + "/config.yaml")
        try #"{"id": "e1", "app": "chat", "provider": "fcm", "token": "t", "notification": {"title": "x"}}"#.write(
            toFile: directory + "/event.json", atomically: true, encoding: .utf8)
        let config = ["--config", directory + "/config.yaml"]
        let commands: [[String]] = [
            ["tail"] + config, ["tail", "--amqp", down],
            ["dead", "list"] + config, ["dead", "show", "abc", "--amqp", down],
            ["dead", "replay", "--all"] + config, ["dead", "purge", "--yes", "--amqp", down],
            ["publish", "--routing-key", "chat.message", "--no-validate", directory + "/event.json"] + config,
        ]
        for arguments in commands {
            let (status, console) = await herald(arguments + ["--timeout", "30s"])
            let name =
                "herald "
                + arguments.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("/") }
                .filter { $0 != "abc" }.joined(separator: " ")
            #expect(status == ExitStatus.unavailable, "\(arguments): \(console.stderr)")
            #expect(
                console.stderr.hasPrefix("\(name): cannot reach the broker at amqp://guest:***@127.0.0.1:1/%2F: "),
                "\(console.stderr)")
            #expect(!console.stderr.contains("\n"), "one line: \(console.stderr)")
            #expect(!console.stderr.contains("s3cret-pw") && !console.stderr.contains("retryable"))
            #expect(console.stdout.isEmpty)
        }
    }

    /// A broker that accepts the connection and never answers: `--timeout`
    /// ends the wait, not the connection's own handshake limit (10 s).
    @Test func tailHonoursItsTimeout() async throws {
        let listener = try #require(LoopbackListener())
        defer { listener.close() }
        let (status, console) = try await within(.seconds(9), "herald tail's end") {
            await herald(["tail", "--amqp", "amqp://guest:guest@127.0.0.1:\(listener.port)/", "--timeout", "500ms"])
        }
        #expect(status == ExitStatus.unavailable)
        #expect(
            console.stderr
                == "herald tail: cannot reach the broker at amqp://guest:***@127.0.0.1:\(listener.port)/%2F: "
                + "no answer within 0.5 seconds")
    }

    @Test func errorTextsLeaveTheRetryClassificationOut() {
        let error = AMQPError(
            .unroutable, operation: "basic.publish", detail: "NO_ROUTE", replyCode: 312, isRetryable: false)
        #expect(error.description.hasSuffix("(not retryable)"), "the classification stays for the code and logs")
        #expect(ErrorText.forTerminal(error) == "basic.publish: unroutable 312: NO_ROUTE")
        let wrapped = TailInterrupted(
            cause: AMQPError(.connectionLost, operation: "basic.consume", detail: "gone", isRetryable: true))
        #expect(
            ErrorText.forTerminal(wrapped).hasPrefix("the subscription ended (basic.consume: connection lost: gone):"))
    }
}
