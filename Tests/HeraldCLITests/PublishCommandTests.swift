import Foundation
import HeraldBrokerTestSupport
import HeraldCLI
import HeraldTestSupport
import Testing

/// `herald publish` against the real broker the test command starts, with
/// names unique to each test so parallel tests never share a queue.
@Suite struct PublishCommandTests {
    func config(prefix: String, url: String = "amqp://guest:guest@127.0.0.1:5672/%2f") throws -> String {
        let dir = NSTemporaryDirectory() + "herald-publish-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try BrokerCommandFixture.writeConfig(prefix: prefix, url: url, to: dir + "/config.yaml")
        return dir
    }

    func herald(_ arguments: [String]) async -> (Int32, CapturedConsole) {
        let console = CapturedConsole()
        return (await HeraldCommandLine().run(arguments, environment: [:], console: console), console)
    }

    @Test func publishesJSONLinesAndDeclaresTheTopology() async throws {
        let prefix = BrokerFixture("publish").prefix
        let dir = try config(prefix: prefix)
        try
            "{\"app\": \"chat\", \"provider\": \"fcm\", \"token\": \"a\"}\n{\"app\": \"chat\", \"provider\": \"fcm\", \"token\": \"b\"}\n"
            .write(toFile: dir + "/events.jsonl", atomically: true, encoding: .utf8)
        let (status, console) = await herald([
            "publish", "--config", dir + "/config.yaml", "--routing-key", "chat.message", dir + "/events.jsonl",
        ])
        #expect(console.stderr == "")
        #expect(status == 0)
        #expect(console.stdout == "published 2 events to \(prefix).events with routing key chat.message")
        let queued = try await rabbitmqctl(["list_queues", "name", "messages_ready"])
        #expect(queued.contains("\(prefix).events\t2"), "\(queued)")
        _ = try? await rabbitmqctl(["delete_queue", "\(prefix).events"])
        _ = try? await rabbitmqctl(["delete_queue", "\(prefix).dead"])
        for tier in ["5s", "30s", "2m", "10m"] {
            _ = try? await rabbitmqctl(["delete_queue", "\(prefix).retry.\(tier)"])
        }
    }

    @Test func invalidInputIsRefusedBeforeAnythingIsPublished() async throws {
        let dir = try config(prefix: "test-publish-invalid")
        try "{\"app\": \"chat\"}\nnot json\n".write(toFile: dir + "/events.jsonl", atomically: true, encoding: .utf8)
        let (status, console) = await herald([
            "publish", "--config", dir + "/config.yaml", "--routing-key", "k", dir + "/events.jsonl",
        ])
        #expect(status == 1)
        #expect(
            console.stderr == """
                herald publish: \(dir)/events.jsonl:2: not a JSON object
                \(dir)/events.jsonl: 1 problem; nothing was published
                """)
    }

    /// Every event is checked as `herald run` would plan it, and the file is
    /// refused with every problem on its line; `--no-validate` publishes anyway.
    @Test func eventsHeraldWouldRefuseAreListedWithTheirLinesAndNothingIsPublished() async throws {
        let prefix = BrokerFixture("publish-check").prefix
        let dir = try config(prefix: prefix)
        try """
        {"app": "chat", "provider": "fcm", "token": "good"}
        {"app": "chat", "provider": "fcm", "token": "t", "notificaton": {"title": "x"}}

        {"app": "chat", "targets": [{"provider": "apns", "token": "not-hex"}, {"provider": "fcm", "topic": "/topics/news"}]}
        {"app": "chta", "provider": "fcm", "token": "t"}
        """.write(toFile: dir + "/events.jsonl", atomically: true, encoding: .utf8)
        let file = dir + "/events.jsonl"
        let (status, console) = await herald([
            "publish", "--config", dir + "/config.yaml", "--routing-key", "chat.message", file,
        ])
        #expect(status == 1)
        #expect(console.stdout == "")
        #expect(
            console.stderr == """
                herald publish: \(file):2: notificaton: unknown field (did you mean "notification"?)
                \(file):4: targets[0].token: expected a hexadecimal APNs device token, found "not-hex"
                \(file):4: targets[1].topic: give the topic name without the "/topics/" prefix
                \(file):5: unknown app 'chta' (did you mean 'chat'?)
                \(file): 4 problems; nothing was published
                """)
        let none = try await rabbitmqctl(["list_queues", "name", "messages_ready"])
        #expect(!none.contains("\(prefix).events"), "nothing declared or published: \(none)")

        let (forced, out) = await herald([
            "publish", "--config", dir + "/config.yaml", "--routing-key", "chat.message", "--no-validate", file,
        ])
        #expect(out.stderr == "")
        #expect(forced == 0)
        #expect(out.stdout == "published 4 events to \(prefix).events with routing key chat.message")
        let queued = try await rabbitmqctl(["list_queues", "name", "messages_ready"])
        #expect(queued.contains("\(prefix).events\t4"), "\(queued)")
        _ = try? await rabbitmqctl(["delete_queue", "\(prefix).events"])
        _ = try? await rabbitmqctl(["delete_queue", "\(prefix).dead"])
        for tier in ["5s", "30s", "2m", "10m"] {
            _ = try? await rabbitmqctl(["delete_queue", "\(prefix).retry.\(tier)"])
        }
    }

    @Test func anUnreachableBrokerIsReportedAsUnavailable() async throws {
        let dir = try config(prefix: "test-publish-down", url: "amqp://guest:secret@127.0.0.1:1/%2f")
        try #"{"app": "chat", "provider": "fcm", "token": "a"}"#.write(
            toFile: dir + "/e.json", atomically: true, encoding: .utf8)
        let (status, console) = await herald([
            "publish", "--config", dir + "/config.yaml", "--routing-key", "k", "--timeout", "1s", dir + "/e.json",
        ])
        #expect(status == ExitStatus.unavailable)
        #expect(
            console.stderr.hasPrefix("herald publish: cannot reach the broker at amqp://guest:***@127.0.0.1:1/%2F: "),
            "\(console.stderr)")
        #expect(!console.stderr.contains("secret"))
    }

    @Test func routingKeyIsRequired() async {
        let (status, console) = await herald(["publish", "e.json"])
        #expect(status == 64)
        #expect(console.stderr.hasPrefix("herald publish: --routing-key is required"))
    }

    func rabbitmqctl(_ arguments: [String]) async throws -> String {
        try await BrokerCommandFixture.rabbitmqctl(arguments)
    }
}
