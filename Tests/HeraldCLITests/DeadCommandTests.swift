import Foundation
import HeraldAMQP
import HeraldCLI
import HeraldCore
import HeraldTestSupport
import Testing

/// `herald dead` against the shared broker, each test on a dead-letter queue
/// of its own. Serialized: one test closes the connection of its command by
/// name, and must find only its own.
@Suite(.serialized) struct DeadCommandTests {
    /// Parks `count` events in the dead-letter queue as Herald does (refused,
    /// with `x-herald-error` and the exchange they came from).
    static func park(
        _ count: Int, in fixture: BrokerCommandFixture, routingKey: String = "chat.message",
        exchange: String? = nil, error: String = "targets: is empty; give at least one target"
    ) async throws {
        let topology = fixture.topology
        try await fixture.withConnection { connection in
            var messages: [AMQPMessage] = []
            for index in 0..<count {
                let delivery = AMQPDelivery(
                    body: Array(#"{"id": "evt-\#(index)", "app": "chat", "targets": []}"#.utf8),
                    exchange: exchange ?? topology.eventsExchange,
                    routingKey: routingKey, redelivered: false, tag: DeliveryTag(value: 1, connection: 1),
                    consumerTag: "c",
                    properties: AMQPProperties(
                        contentType: "application/json", headers: ["tenant": "acme"], persistent: true,
                        messageID: "evt-\(index)"))
                messages.append(
                    RetryRouting.deadLetterMessage(
                        for: delivery, error: error, topology: topology,
                        at: Timestamp(seconds: 1_700_000_000)))
            }
            for start in stride(from: 0, to: messages.count, by: 500) {
                try await connection.publish(Array(messages[start..<min(start + 500, messages.count)]), mandatory: true)
            }
        }
    }

    static func count(_ queue: String, in fixture: BrokerCommandFixture) async throws -> Int {
        try await fixture.withConnection { try await $0.messageCount(queue: queue) }
    }

    /// list shows Herald's dead letters and the broker's (rejected, with
    /// x-death), leaves them in the queue, and gives the same IDs each time.
    @Test(arguments: [QueueType.classic, .quorum])
    func listShowsTheDeadLettersWithoutRemovingThem(queueType: QueueType) async throws {
        let fixture = try BrokerCommandFixture("dead-list", queueType: queueType)
        try await Self.park(1, in: fixture)
        try await fixture.withConnection { connection in
            let consumer = try await connection.consume(queue: fixture.topology.eventsQueue, prefetch: 1)
            try await connection.publish(
                exchange: fixture.topology.eventsExchange, routingKey: "chat.poison",
                body: Array(#"{"id": "evt-poison"}"#.utf8), mandatory: true)
            var deliveries = consumer.deliveries.makeAsyncIterator()
            guard let delivery = try await deliveries.next() else {
                throw TestFailure("no delivery of the poison event")
            }
            try await connection.reject(delivery, requeue: false)
        }
        #expect(
            try await eventually(timeout: .seconds(10)) {
                try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 2
            })

        let (status, console) = await fixture.herald(["dead", "list", "--config", fixture.configFile])
        #expect(status == 0, "\(console.stderr)")
        let lines = console.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(console.stdout)")
        #expect(lines.first?.hasPrefix("ID          EVENT") == true, "\(console.stdout)")
        let parked = lines.first { $0.contains("evt-0") } ?? ""
        #expect(
            parked.contains("chat.message  2023-11-14T22:13:20Z  targets: is empty; give at least one target"),
            "\(parked)")
        let poison = lines.first { $0.contains("evt-poison") } ?? ""
        #expect(poison.contains("chat.poison"), "\(poison)")
        #expect(poison.hasSuffix("rejected by \(fixture.topology.eventsQueue)"), "\(poison)")
        #expect(try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 2)

        let (again, second) = await fixture.herald(["dead", "list", "--config", fixture.configFile, "--json"])
        #expect(again == 0)
        let ids = lines.dropFirst().map { String($0.prefix(10)) }
        for id in ids { #expect(second.stdout.contains(#""id":"\#(id)""#), "\(second.stdout)") }
        #expect(second.stdout.contains(#""replay_exchange":"\#(fixture.topology.eventsExchange)""#))

        let poisonID = String(poison.prefix(6))  // a unique prefix will do
        let (shown, show) = await fixture.herald(["dead", "show", poisonID, "--config", fixture.configFile])
        #expect(shown == 0, "\(show.stderr)")
        #expect(
            show.stdout.contains(
                "replays to:     exchange \(fixture.topology.eventsExchange), routing key chat.poison"),
            "\(show.stdout)")
        #expect(show.stdout.contains("  x-first-death-reason: rejected"), "\(show.stdout)")
        #expect(show.stdout.hasSuffix(#"{"id": "evt-poison"}"#), "\(show.stdout)")
        #expect(try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 2)

        let (missing, none) = await fixture.herald(["dead", "show", "ffffffffff", "--config", fixture.configFile])
        #expect(missing == 1)
        #expect(none.stderr == "herald dead show: no dead letter ffffffffff among the 2 read")
        await fixture.cleanUp()
    }

    /// replay puts the chosen dead letter back on its exchange with its
    /// routing key, without the headers of its dead-lettering, and takes it
    /// out of the queue; one that cannot be republished stays.
    @Test func replayRepublishesToTheOriginalRoutingKeyAndRemovesOnlyWhatWasConfirmed() async throws {
        // A registry in the config, but its exchange is not declared: that copy is refused by the broker.
        let fixture = try BrokerCommandFixture("dead-replay", registry: true)
        try await Self.park(1, in: fixture)
        try await Self.park(
            1, in: fixture, routingKey: "register", exchange: fixture.prefix + ".registry", error: "refused")
        let (_, listed) = await fixture.herald(["dead", "list", "--config", fixture.configFile])
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let event = String((lines.first { $0.contains("chat.message") } ?? "").prefix(10))
        let command = String((lines.first { $0.contains("register") } ?? "").prefix(10))

        let (status, console) = await fixture.herald(["dead", "replay", event, command, "--config", fixture.configFile])
        #expect(status == 1)
        #expect(
            console.stdout.contains(
                "replayed \(event) to \(fixture.topology.eventsExchange) with routing key chat.message"))
        #expect(
            console.stdout.hasSuffix(
                "replayed 1 dead letter; 1 could not be and stay in \(fixture.topology.deadLetterQueue)"),
            "\(console.stdout)")
        #expect(
            console.stderr.contains("herald dead replay: \(command) stays in \(fixture.topology.deadLetterQueue)"),
            "\(console.stderr)")
        #expect(console.stderr.contains("404"), "\(console.stderr)")

        try await fixture.withConnection { connection in
            let replayed = try await BrokerCommandFixture.drain(
                fixture.topology.eventsQueue, on: connection, expecting: 1)
            #expect(replayed.first?.routingKey == "chat.message")
            #expect(replayed.first?.body == Array(#"{"id": "evt-0", "app": "chat", "targets": []}"#.utf8))
            // Published as the replaying user (the config's, guest), recording that the letter had no user-id.
            #expect(replayed.first?.headers == ["tenant": "acme", "x-herald-replays": 1, "x-herald-publisher": ""])
            #expect(replayed.first?.properties.userID == "guest")
            #expect(replayed.first?.messageID == "evt-0")
            let left = try await BrokerCommandFixture.drain(
                fixture.topology.deadLetterQueue, on: connection, expecting: 1)
            #expect(left.first?.routingKey == "register")
            #expect(try await connection.messageCount(queue: fixture.topology.deadLetterQueue) == 0)
        }
        await fixture.cleanUp()
    }

    /// The broker drops the command's connection in the middle of a replay:
    /// every dead letter is afterwards still in the queue, or republished, or both.
    @Test func nothingIsLostWhenTheConnectionDropsMidReplay() async throws {
        let fixture = try BrokerCommandFixture("dead-drop")
        let total = 3000
        try await Self.park(total, in: fixture)
        let console = CapturedConsole()
        let replay = Task {
            await fixture.herald(
                ["dead", "replay", "--all", "--limit", String(total), "--config", fixture.configFile], console: console)
        }
        let started = try await eventually(timeout: .seconds(30)) {
            try await Self.count(fixture.topology.eventsQueue, in: fixture) > 0
        }
        #expect(started)
        let name = "herald dead replay \(fixture.topology.deadLetterQueue)"
        let connections = try await BrokerCommandFixture.rabbitmqctl(["list_connections", "pid", "client_properties"])
        let pid = connections.split(separator: "\n").first { $0.contains(name) }?.split(separator: "\t").first.map(
            String.init)
        #expect(pid != nil, "\(connections)")
        if let pid {
            _ = try await BrokerCommandFixture.rabbitmqctl(["close_connection", pid, "test: dropped mid-replay"])
        }
        let status = await replay.value
        #expect(status == 1, "the replay finished before the connection was closed: \(console.stdout.suffix(200))")
        #expect(console.stderr.hasPrefix("herald dead replay: stopped at "), "\(console.stderr)")
        #expect(console.stderr.contains("in \(fixture.topology.deadLetterQueue)"), "\(console.stderr)")

        try await fixture.withConnection { connection in
            let dead = try await connection.messageCount(queue: fixture.topology.deadLetterQueue)
            let replayed = try await connection.messageCount(queue: fixture.topology.eventsQueue)
            #expect(dead > 0 && replayed > 0, "dead \(dead), replayed \(replayed)")
            var ids = Set<String>()
            for queue in [fixture.topology.deadLetterQueue, fixture.topology.eventsQueue] {
                let count = queue == fixture.topology.eventsQueue ? replayed : dead
                for delivery in try await BrokerCommandFixture.drain(queue, on: connection, expecting: count) {
                    ids.insert(delivery.messageID ?? "")
                }
            }
            #expect(
                ids == Set((0..<total).map { "evt-\($0)" }),
                "missing: \(Set((0..<total).map { "evt-\($0)" }).subtracting(ids).sorted().prefix(5))")
        }
        await fixture.cleanUp()
    }

    /// The dead letters of the incident (docs/security.md, "Dead-letter
    /// replay"): a publisher's message to the events exchange carrying a
    /// forged `x-herald-exchange` naming the registry and `expiration: "1"`,
    /// dead-lettered by the broker as expired. The broker's x-death names the
    /// events queue: the copy goes to the events exchange, nothing to the
    /// registry. A message the broker dead-lettered from a queue that is not
    /// Herald's is refused with the reason, stays parked, and the exit status is 1.
    @Test func aForgedExchangeHeaderCannotSteerAReplayAndForeignDeadLettersAreRefused() async throws {
        let fixture = try BrokerCommandFixture("dead-forged", registry: true)
        let registry = RegistryCommandTopology(prefix: fixture.prefix, routingKeys: ["register"])
        let other = fixture.prefix + ".other"
        let command =
            #"{"id": "evil", "app": "chat", "provider": "apns", "token": "\#(String(repeating: "ab", count: 32))", "channels": ["user:42"]}"#
        try await fixture.withConnection { connection in
            try await connection.declareExchange(registry.exchange, type: "topic")
            try await connection.declareQueue(registry.queue)
            try await connection.bindQueue(registry.queue, exchange: registry.exchange, routingKey: "register")
            // A queue not Herald's, dead-lettering into Herald's dead-letter exchange.
            try await connection.declareQueue(
                other, arguments: ["x-dead-letter-exchange": .string(fixture.topology.deadLetterExchange)])
            try await connection.bindQueue(other, exchange: fixture.topology.eventsExchange, routingKey: "other.#")
            let forged = AMQPProperties(
                headers: [HeraldHeader.exchange: .string(registry.exchange)], persistent: true,
                expiration: "1", messageID: "evil")
            try await connection.publish(
                AMQPMessage(
                    exchange: fixture.topology.eventsExchange, routingKey: "register",
                    body: Array(command.utf8), properties: forged), mandatory: true)
            try await connection.publish(
                AMQPMessage(
                    exchange: fixture.topology.eventsExchange, routingKey: "other.thing",
                    body: Array(#"{"id": "foreign"}"#.utf8),
                    properties: AMQPProperties(expiration: "1", messageID: "foreign")), mandatory: true)
        }
        // Both queues have no consumer: their messages expire into herald.dead (the events queue's
        // copy once, and the other queue's once, as the binding "#" routes "other.thing" to both).
        #expect(
            try await eventually(timeout: .seconds(30)) {
                try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 3
            })

        let (status, console) = await fixture.herald(["dead", "replay", "--all", "--config", fixture.configFile])
        #expect(status == 1, "\(console.stdout)\n\(console.stderr)")
        #expect(
            console.stdout.contains(" to \(fixture.topology.eventsExchange) with routing key register"),
            "\(console.stdout)")
        #expect(
            console.stdout.contains(" to \(fixture.topology.eventsExchange) with routing key other.thing"),
            "\(console.stdout)")
        #expect(
            console.stdout.hasSuffix(
                "replayed 2 dead letters; 1 refused and stays in \(fixture.topology.deadLetterQueue)"),
            "\(console.stdout)")
        #expect(
            console.stderr.contains(
                " refused, it stays in \(fixture.topology.deadLetterQueue): the broker dead-lettered it"
                    + " from queue '\(other)', which is neither Herald's events queue '\(fixture.topology.eventsQueue)'"
                    + " nor its registry queue '\(registry.queue)'"), "\(console.stderr)")
        try await fixture.withConnection { connection in
            #expect(try await connection.messageCount(queue: registry.queue) == 0, "nothing reached the registry")
            let replayed = try await BrokerCommandFixture.drain(
                fixture.topology.eventsQueue, on: connection, expecting: 2)
            let copy = try #require(replayed.first { $0.routingKey == "register" })
            #expect(copy.body == Array(command.utf8))
            #expect(
                copy.headers == ["x-herald-replays": 1, "x-herald-publisher": ""],
                "the forged header is dropped with the others of the dead-lettering")
            let left = try await BrokerCommandFixture.drain(
                fixture.topology.deadLetterQueue, on: connection, expecting: 1)
            #expect(left.first?.messageID == "foreign")
            try await connection.deleteQueue(registry.queue)
            try await connection.deleteQueue(other)
            try await connection.deleteExchange(registry.exchange)
        }
        await fixture.cleanUp()
    }

    /// A poison message sent round and round (dead-lettered, replayed, dead-lettered
    /// again, by Herald and by the broker in turn) is replayed at most
    /// --max-replays times: then it is refused and stays parked, until the
    /// operator allows more.
    @Test func theReplayCountStopsALoop() async throws {
        let fixture = try BrokerCommandFixture("dead-loop")
        try await Self.park(1, in: fixture)
        for round in 1...DeadLetterReplay.defaultMaxReplays {
            let (status, console) = await fixture.herald(["dead", "replay", "--all", "--config", fixture.configFile])
            #expect(status == 0, "round \(round): \(console.stderr)")
            #expect(console.stdout.hasSuffix("replayed 1 dead letter"), "round \(round): \(console.stdout)")
            // Dead-lettered again: by Herald (parked with its reason) or by the broker (rejected).
            try await fixture.withConnection { connection in
                let consumer = try await connection.consume(queue: fixture.topology.eventsQueue, prefetch: 1)
                var deliveries = consumer.deliveries.makeAsyncIterator()
                guard let copy = try await deliveries.next() else {
                    throw TestFailure("no replayed copy in round \(round)")
                }
                #expect(copy.headers[HeraldHeader.replays] == .int(Int64(round)))
                if round % 2 == 1 {
                    try await connection.publish(
                        RetryRouting.deadLetterMessage(
                            for: copy, error: "targets: is empty; give at least one target", topology: fixture.topology),
                        mandatory: true)
                    try await connection.ack(copy)
                } else {
                    try await connection.reject(copy, requeue: false)
                }
            }
            #expect(
                try await eventually(timeout: .seconds(10)) {
                    try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 1
                })
        }
        let (refused, console) = await fixture.herald(["dead", "replay", "--all", "--config", fixture.configFile])
        #expect(refused == 1)
        #expect(console.stdout == "replayed 0 dead letters; 1 refused and stays in \(fixture.topology.deadLetterQueue)")
        #expect(
            console.stderr.hasSuffix(
                " refused, it stays in \(fixture.topology.deadLetterQueue): it was replayed 3 times already"
                    + " (x-herald-replays), the most allowed is 3; once its cause is fixed, --max-replays 4 allows one more"
            ),
            "\(console.stderr)")
        #expect(try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 1)
        #expect(try await Self.count(fixture.topology.eventsQueue, in: fixture) == 0)

        let (allowed, more) = await fixture.herald([
            "dead", "replay", "--all", "--max-replays", "4", "--config", fixture.configFile,
        ])
        #expect(allowed == 0, "\(more.stderr)")
        #expect(try await Self.count(fixture.topology.eventsQueue, in: fixture) == 1)
        let (usage, wrong) = await fixture.herald([
            "dead", "replay", "--all", "--max-replays", "0", "--config", fixture.configFile,
        ])
        #expect(usage == 64)
        #expect(wrong.stderr.hasPrefix("herald dead: --max-replays: expected an integer from 1 to 1000, found '0'"))
        await fixture.cleanUp()
    }

    /// purge without --yes says how many and deletes nothing; with it, deletes them.
    @Test func purgeDeletesOnlyWithYes() async throws {
        let fixture = try BrokerCommandFixture("dead-purge")
        try await Self.park(2, in: fixture)
        let (refused, console) = await fixture.herald(["dead", "purge", "--config", fixture.configFile])
        #expect(refused == 1)
        #expect(
            console.stderr
                == "herald dead purge: would delete 2 dead letters from \(fixture.topology.deadLetterQueue); run it with --yes to delete them"
        )
        #expect(try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 2)
        let (purged, yes) = await fixture.herald(["dead", "purge", "--yes", "--config", fixture.configFile])
        #expect(purged == 0, "\(yes.stderr)")
        #expect(yes.stdout == "deleted 2 dead letters from \(fixture.topology.deadLetterQueue)")
        #expect(try await Self.count(fixture.topology.deadLetterQueue, in: fixture) == 0)
        await fixture.cleanUp()
    }

    /// `--amqp-file` and `$HERALD_AMQP_URL` give the broker without putting
    /// its password on the command line: here they replace the address of a
    /// config that names no reachable broker, so the command works only
    /// through them.
    @Test func theBrokerURLComesFromAFileOrTheEnvironmentInsteadOfTheCommandLine() async throws {
        let fixture = try BrokerCommandFixture("dead-amqp-file")
        try await Self.park(1, in: fixture)
        let unreachable = fixture.directory + "/unreachable.yaml"
        try BrokerCommandFixture.writeConfig(
            prefix: fixture.prefix, url: "amqp://guest:guest@127.0.0.1:1/%2f", to: unreachable)
        let urlFile = fixture.directory + "/amqp-url"
        try (BrokerCommandFixture.url + "\n").write(toFile: urlFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: urlFile)
        func purge(_ arguments: [String], _ environment: [String: String]) async -> (Int32, CapturedConsole) {
            let console = CapturedConsole()
            let status = await HeraldCommandLine().run(
                ["dead", "purge", "--config", unreachable] + arguments,
                environment: environment, console: console)
            return (status, console)
        }
        let counted =
            "herald dead purge: would delete 1 dead letter from \(fixture.topology.deadLetterQueue); run it with --yes to delete them"
        for (arguments, environment) in [
            (["--amqp-file", urlFile], [:]), ([], ["HERALD_AMQP_URL": BrokerCommandFixture.url]),
        ] {
            let (status, console) = await purge(arguments, environment)
            #expect(status == 1, "\(arguments) \(environment.keys)")
            #expect(console.stderr == counted, "\(arguments) \(environment.keys)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: urlFile)
        let (_, shared) = await purge(["--amqp-file", urlFile], [:])
        #expect(
            shared.stderr
                == "herald dead: warning: --amqp-file '\(urlFile)' is readable by every user (mode 0644); chmod 600 it\n"
                + counted)
        let (_, both) = await purge(["--amqp-file", urlFile, "--amqp", BrokerCommandFixture.url], [:])
        #expect(both.stderr == "herald dead: give --amqp or --amqp-file, not both")
        let empty = fixture.directory + "/empty"
        try "\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let (_, nothing) = await purge(["--amqp-file", empty], [:])
        #expect(nothing.stderr == "herald dead: --amqp-file: '\(empty)' holds no URL on its first line")
        await fixture.cleanUp()
    }

    @Test func theHelpSaysWhereElseTheBrokerURLCanComeFrom() async {
        for command in [["dead", "--help"], ["tail", "--help"]] {
            let console = CapturedConsole()
            #expect(await HeraldCommandLine().run(command, environment: [:], console: console) == 0)
            #expect(console.stdout.contains("--amqp-file FILE"), "\(command)")
            #expect(
                console.stdout.contains("A broker URL from --amqp URL, --amqp-file FILE\nor $HERALD_AMQP_URL"),
                "\(command): \(console.stdout)")
            #expect(console.stdout.contains("prefer --amqp-file or $HERALD_AMQP_URL for a real password"), "\(command)")
        }
    }

    @Test func replayNeedsIDsOrAll() async throws {
        let fixture = try BrokerCommandFixture("dead-usage")
        let (status, console) = await fixture.herald(["dead", "replay", "--config", fixture.configFile])
        #expect(status == 64)
        #expect(console.stderr.hasPrefix("herald dead: give the IDs to replay, or --all"))
        let (unknown, other) = await fixture.herald(["dead", "lst"])
        #expect(unknown == 64)
        #expect(other.stderr.hasPrefix("herald dead: unknown subcommand 'lst' (did you mean 'list'?)"))
        try? FileManager.default.removeItem(atPath: fixture.directory)
    }
}
