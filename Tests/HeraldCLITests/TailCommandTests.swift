import Foundation
import HeraldAMQP
@testable import HeraldCLI
import HeraldCore
import HeraldTestSupport
import Testing

/// `herald tail` against the shared broker, on a results exchange of each test's own.
@Suite struct TailCommandTests {
    /// The filters become one binding per status; no --status means every
    /// delivery status (registry results and debug records stay out).
    @Test func filtersBecomeTheQueuesBindings() throws {
        #expect(
            TailCommand.Filter().bindings == [
                "delivered.*.*", "invalid_token.*.*", "failed.*.*", "retrying.*.*",
                "expired.*.*", "dropped.*.*", "rejected.*.*",
            ])
        let parsed = try ParsedArguments.parse(
            [
                "--status", "invalid_token,failed", "--status", "registered", "--provider", "ios",
                "--app", "chat",
            ], options: ["status", "provider", "app"], flags: [],
            repeatable: ["status"])
        let filter = try TailCommand.Filter(parsed)
        #expect(filter.bindings == ["invalid_token.apns.chat", "failed.apns.chat", "registered.apns.chat"])
        #expect(TailCommand.Filter(provider: "fcm").bindings.first == "delivered.fcm.*")
        var debug = TailCommand.Filter(app: "chat")
        debug.debug = true
        #expect(
            debug.bindings.suffix(1) == ["debug.*.chat"], "one binding takes the route records (debug.route.chat) too")
        debug.provider = "apns"
        #expect(debug.bindings.suffix(2) == ["debug.apns.chat", "debug.route.chat"])
    }

    @Test func badFiltersAreUsageErrorsThatSayWhatIsExpected() async throws {
        let fixture = try BrokerCommandFixture("tail-usage")
        let (status, console) = await fixture.herald(["tail", "--status", "invalid_tokn"])
        #expect(status == 64)
        #expect(
            console.stderr.hasPrefix(
                "herald tail: --status: unknown status 'invalid_tokn' (did you mean 'invalid_token'?)"))
        let (app, appConsole) = await fixture.herald(["tail", "--app", "chat.*"])
        #expect(app == 64)
        #expect(appConsole.stderr.hasPrefix("herald tail: --app: 'chat.*' is not an app name"))
        let (count, countConsole) = await fixture.herald(["tail", "--count", "0"])
        #expect(count == 64)
        #expect(countConsole.stderr.hasPrefix("herald tail: --count: expected a positive integer, found '0'"))
        try? FileManager.default.removeItem(atPath: fixture.directory)
    }

    /// Outcomes published while it runs come out as aligned lines, tokens
    /// masked, only those the filters select, and it stops after --count.
    @Test func printsTheSelectedOutcomesAsTheyArriveAndStopsAfterCount() async throws {
        let fixture = try BrokerCommandFixture("tail")
        let token = String(repeating: "a1", count: 32)
        let at = Timestamp(seconds: 1_700_000_000)
        let outcomes = [
            Outcome(
                status: .failed, eventID: "evt-failed", app: "chat", provider: .apns, address: .token(token),
                reason: "BadTopic", at: at),
            Outcome(
                status: .invalidToken, eventID: "evt-fcm", app: "chat", provider: .fcm, address: .token("fcm-token-1"),
                reason: "UNREGISTERED", at: at),
            Outcome(
                status: .invalidToken, eventID: "evt-1", app: "chat", provider: .apns, address: .token(token),
                reason: "Unregistered", at: at),
            Outcome(status: .delivered, eventID: "evt-2", app: "chat", provider: .apns, address: .token(token), at: at),
        ]
        let console = CapturedConsole()
        let tail = Task {
            await fixture.herald(
                [
                    "tail", "--config", fixture.configFile, "--status", "invalid_token,delivered", "--provider", "apns",
                    "--count", "2",
                ], console: console)
        }
        // The queue is bound once the command says it listens.
        // (A broker busy with the rest of the suite may take seconds per binding; without them it would wait forever.)
        try #require(
            await eventually(timeout: .seconds(90)) { console.stderr.contains("Ctrl-C to stop") }, "\(console.stderr)")
        try await fixture.withConnection { connection in
            for outcome in outcomes {
                try await connection.publish(
                    exchange: fixture.topology.resultsExchange, routingKey: outcome.routingKey,
                    body: outcome.encoded, persistent: false)
            }
        }
        let status = await tail.value
        #expect(status == 0, "\(console.stderr)")
        #expect(
            console.stdout == """
                EVENT                 PROVIDER  TARGET                      STATUS             REASON
                evt-1                 apns      a1a1a1a1…                   invalid_token      Unregistered
                evt-2                 apns      a1a1a1a1…                   delivered
                """)
        #expect(!console.stdout.contains(token))
        #expect(console.stderr.contains("invalid_token.apns.*, delivered.apns.*"), "\(console.stderr)")
        await fixture.cleanUp()
    }

    /// --json prints each message as it was published.
    @Test func jsonPrintsTheMessagesAsReceived() async throws {
        let fixture = try BrokerCommandFixture("tail-json")
        let outcome = Outcome(
            status: .dropped, eventID: "evt-json", app: "news", provider: .fcm, address: .topic("news"),
            reason: "token is in exclude_tokens", at: Timestamp(seconds: 1_700_000_000))
        let console = CapturedConsole()
        let tail = Task {
            await fixture.herald(["tail", "--config", fixture.configFile, "--json", "--count", "1"], console: console)
        }
        try #require(
            await eventually(timeout: .seconds(90)) { console.stderr.contains("Ctrl-C to stop") }, "\(console.stderr)")
        try await fixture.withConnection { connection in
            try await connection.publish(
                exchange: fixture.topology.resultsExchange, routingKey: "registered.fcm.news",
                body: Array(#"{"command": "register", "result": "registered"}"#.utf8))
            try await connection.publish(
                exchange: fixture.topology.resultsExchange, routingKey: outcome.routingKey, body: outcome.encoded)
        }
        #expect(await tail.value == 0, "\(console.stderr)")
        #expect(console.stdout == String(decoding: outcome.encoded, as: UTF8.self))
        await fixture.cleanUp()
    }

    /// Registry results, channel devices, Web Push endpoints and bodies that are not JSON print in the same columns.
    @Test func registryResultsChannelsAndUnreadableBodiesFitTheColumns() {
        let registered = ResultLine(
            body: Array(
                #"{"command": "register", "command_id": "cmd-1", "result": "registered", "provider": "fcm", "token": "fcm-token-of-a-phone"}"#
                    .utf8),
            routingKey: "registered.fcm.chat")
        #expect(registered.text == "cmd-1                 fcm       fcm-toke…                   registered")
        let channel = ResultLine(
            body: Array(
                #"{"event_id": "e", "provider": "apns", "token": "abcdef0123456789", "channel": "user:42", "status": "failed", "reason": "BadTopic", "detail": "topic disallowed"}"#
                    .utf8),
            routingKey: "failed.apns.chat")
        #expect(
            channel.text
                == "e                     apns      abcdef01… (user:42)         failed             BadTopic: topic disallowed"
        )
        let webPush = ResultLine(
            body: Array(
                #"{"event_id": "w", "provider": "webpush", "endpoint": "https://127.0.0.1:2197/push/Zk3aB9xQ1rT7", "status": "invalid_token", "reason": "Gone"}"#
                    .utf8),
            routingKey: "invalid_token.webpush.chat")
        #expect(webPush.text == "w                     webpush   127.0.0.1:2197/…/Zk3aB9xQ…  invalid_token      Gone")
        let expired = ResultLine(
            body: Array(
                #"{"result": "registry_expired", "app": "chat", "provider": "fcm", "token": "fcm-token-1", "channels": ["user:42"], "change": "removed", "removed": 1, "last_seen": "2026-03-05T09:12:44.120Z", "at": "2026-11-30T10:00:01.234Z"}"#
                    .utf8),
            routingKey: "registry_expired.fcm.chat")
        #expect(
            expired.text
                == "-                     fcm       fcm-toke…                   registry_expired   not registered since 2026-03-05T09:12:44.120Z"
        )
        let junk = ResultLine(body: Array("not json".utf8), routingKey: "debug.apns.chat")
        #expect(
            junk.text
                == "-                     -         -                           debug.apns.chat    (8 bytes that are not a JSON object)"
        )
    }

    /// Its queue dies with its connection: when the broker drops the
    /// connection, it says outcomes were missed and exits 1 instead of
    /// resuming with a gap.
    @Test func aLostConnectionEndsItWithAnErrorThatSaysOutcomesWereMissed() async throws {
        let fixture = try BrokerCommandFixture("tail-drop")
        let console = CapturedConsole()
        let tail = Task { await fixture.herald(["tail", "--config", fixture.configFile], console: console) }
        try #require(
            await eventually(timeout: .seconds(90)) { console.stderr.contains("Ctrl-C to stop") }, "\(console.stderr)")
        let name = "herald tail \(fixture.topology.resultsExchange)"
        let connections = try await BrokerCommandFixture.rabbitmqctl(["list_connections", "pid", "client_properties"])
        let pid = connections.split(separator: "\n").first { $0.contains(name) }?.split(separator: "\t").first.map(
            String.init)
        #expect(pid != nil, "\(connections)")
        if let pid { _ = try await BrokerCommandFixture.rabbitmqctl(["close_connection", pid, "test: dropped"]) }
        #expect(await tail.value == 1)
        #expect(
            console.stderr.hasSuffix(
                "the connection to the broker was lost and the private queue with it, so outcomes"
                    + " published meanwhile were missed; run herald tail again"), "\(console.stderr)")
        await fixture.cleanUp()
    }
}
