import HeraldAMQP
import HeraldCore
import Testing

/// Where `herald dead replay` sends a dead letter: decided by the broker's
/// `x-death` (the queue it left) or, for Herald's own dead letters (no
/// `x-death`), by the exchange Herald recorded — never by a header a
/// publisher could forge; and how often it may go.
@Suite struct DeadLetterReplayTests {
    static let topology: TopologyOptions = {
        var topology = TopologyOptions()
        topology.registryCommands = RegistryCommandTopology(routingKeys: ["register", "unregister"])
        return topology
    }()

    static func dead(_ routingKey: String, _ headers: AMQPTable) -> AMQPDelivery {
        AMQPDelivery(
            body: Array("{}".utf8), exchange: "herald.dead", routingKey: routingKey, redelivered: true,
            tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
            properties: AMQPProperties(headers: headers, messageID: "evt-1"))
    }

    static func death(queue: AMQPFieldValue?, exchange: String = "herald.events", reason: String = "expired")
        -> AMQPFieldValue
    {
        var entry: AMQPTable = ["exchange": .string(exchange), "reason": .string(reason)]
        entry["queue"] = queue
        return .table(entry)
    }

    static func origin(_ delivery: AMQPDelivery, _ topology: TopologyOptions = topology) -> String {
        switch DeadLetterReplay.origin(of: delivery, topology: topology) {
        case .success(let origin): "\(origin.exchange) \(origin.routingKey)"
        case .failure(let refusal): "refused: \(refusal)"
        }
    }

    /// The forged header of the incident: a publisher's message to the events
    /// exchange, dead-lettered by the broker (expired), claims to come from
    /// the registry. The broker's newest x-death entry names the events queue.
    @Test func theBrokersNewestDeathDecidesNotHeraldsHeader() {
        let forged = Self.dead(
            "register",
            [
                "x-herald-exchange": "herald.registry",
                "x-death": .array([Self.death(queue: "herald.events")]),
                "x-first-death-exchange": "herald.registry", "x-first-death-queue": "herald.registry",
            ])
        #expect(Self.origin(forged) == "herald.events register")
        // The publisher sent an x-death of its own for the events queue, naming
        // the registry exchange: the broker moved it first, and its queue is what counts.
        let moved = Self.dead(
            "register",
            [
                "x-death": .array([
                    Self.death(queue: "herald.events", exchange: "herald.registry"),
                    Self.death(queue: "herald.registry", exchange: "herald.registry", reason: "rejected"),
                ])
            ])
        #expect(Self.origin(moved) == "herald.events register")
    }

    @Test func eachOfHeraldsQueuesGoesBackToItsOwnExchange() {
        let rejected = Self.dead(
            "chat.msg", ["x-death": .array([Self.death(queue: "herald.events", reason: "rejected")])])
        #expect(Self.origin(rejected) == "herald.events chat.msg")
        let command = Self.dead(
            "unregister",
            [
                "x-death": .array([
                    Self.death(
                        queue: "herald.registry", exchange: "herald.registry",
                        reason: "delivery_limit")
                ])
            ])
        #expect(Self.origin(command) == "herald.registry unregister")
    }

    @Test func aDeathFromAnyOtherQueueIsRefused() {
        let delay = Self.dead(
            "chat.msg", ["x-death": .array([Self.death(queue: "herald.retry.5s", exchange: "herald.retry")])])
        #expect(
            Self.origin(delay) == "refused: the broker dead-lettered it from queue 'herald.retry.5s', which is neither"
                + " Herald's events queue 'herald.events' nor its registry queue 'herald.registry'")
        // Without a registry, the registry queue is not Herald's either.
        let command = Self.dead("register", ["x-death": .array([Self.death(queue: "herald.registry")])])
        #expect(
            Self.origin(command, TopologyOptions())
                == "refused: the broker dead-lettered it from queue 'herald.registry',"
                + " which is not Herald's events queue 'herald.events'")
    }

    @Test func anXDeathWithoutAQueueIsRefused() {
        let expected =
            "refused: its x-death header names no queue in its newest entry, so where the broker dead-lettered it from is unknown"
        for death: AMQPFieldValue in [
            .array([]), .string("herald.events"), .array([Self.death(queue: nil)]),
            .array([Self.death(queue: .int(7))]), .array([.string("herald.events")]),
        ] {
            // Herald's header does not stand in for the broker's record.
            #expect(
                Self.origin(Self.dead("register", ["x-death": death, "x-herald-exchange": "herald.registry"]))
                    == expected)
        }
    }

    /// No x-death: Herald parked it, publishing to the dead-letter exchange
    /// (which publishers cannot write to) with the exchange it consumed from.
    @Test func heraldsOwnDeadLettersGoBackToTheExchangeItRecorded() {
        #expect(Self.origin(Self.dead("chat.msg", ["x-herald-exchange": "herald.events"])) == "herald.events chat.msg")
        #expect(
            Self.origin(Self.dead("register", ["x-herald-exchange": "herald.registry"])) == "herald.registry register")
        #expect(
            Self.origin(Self.dead("register", ["x-herald-exchange": "herald.registry"]), TopologyOptions())
                == "refused: Herald parked it from exchange 'herald.registry', which is not Herald's events exchange 'herald.events'"
        )
        #expect(
            Self.origin(Self.dead("chat.msg", ["x-herald-exchange": "herald.dead"]))
                == "refused: Herald parked it from exchange 'herald.dead', which is neither Herald's events exchange"
                + " 'herald.events' nor its registry exchange 'herald.registry'")
    }

    @Test func withNeitherTheBrokersNorHeraldsRecordItIsRefused() {
        let expected =
            "refused: it carries neither the broker's x-death nor Herald's x-herald-exchange: neither dead-lettered it"
        #expect(Self.origin(Self.dead("unregister", [:])) == expected, "the routing key proves nothing")
        #expect(
            Self.origin(Self.dead("chat.msg", ["x-first-death-exchange": "herald.events", "x-herald-exchange": ""]))
                == expected)
    }

    /// The copy carries none of the headers of its dead-lettering, and one replay more.
    @Test func theCopyCountsItsReplaysAndDropsTheDeadLetteringHeaders() throws {
        let parked = Self.dead(
            "register",
            [
                "x-herald-exchange": "herald.registry", "x-herald-error": "refused",
                "x-herald-dead-lettered-at": 1, "x-herald-attempt": 3, "x-herald-received-at": 7,
                "x-delivery-count": 2, "herald-retry-tier": "5s", "tenant": "acme",
            ])
        let replay = try DeadLetterReplay.message(for: parked, topology: Self.topology).get()
        #expect(replay.exchange == "herald.registry")
        #expect(replay.routingKey == "register")
        #expect(replay.properties.headers == ["x-herald-received-at": 7, "tenant": "acme", "x-herald-replays": 1])
        #expect(replay.properties.persistent)
        #expect(replay.properties.messageID == "evt-1")

        let rejected = Self.dead(
            "chat.msg",
            [
                "x-death": .array([Self.death(queue: "herald.events", reason: "rejected")]),
                "x-first-death-exchange": "herald.events", "x-first-death-queue": "herald.events",
                "x-first-death-reason": "rejected", "x-herald-replays": 2,
            ])
        #expect(
            try DeadLetterReplay.message(for: rejected, topology: Self.topology).get().properties.headers
                == ["x-herald-replays": 3])
    }

    @Test func aDeadLetterReplayedTheMostTimesAllowedIsRefused() {
        func replay(_ replays: AMQPFieldValue?, max: Int = DeadLetterReplay.defaultMaxReplays) -> String {
            var headers: AMQPTable = ["x-herald-exchange": "herald.events"]
            headers["x-herald-replays"] = replays
            switch DeadLetterReplay.message(
                for: Self.dead("chat.msg", headers), topology: Self.topology, maxReplays: max)
            {
            case .success(let copy): return "\(copy.properties.headers["x-herald-replays"] ?? .void)"
            case .failure(let refusal): return "refused: \(refusal)"
            }
        }
        #expect(DeadLetterReplay.defaultMaxReplays == 3)
        #expect(replay(nil) == "1")
        #expect(replay(.int(0)) == "1")
        #expect(replay(.int(2)) == "3")
        #expect(replay(.int(3), max: 4) == "4")
        #expect(replay(.int(3)) == "refused: it was replayed 3 times already (x-herald-replays), the most allowed is 3")
        #expect(
            replay(.int(1), max: 1)
                == "refused: it was replayed 1 time already (x-herald-replays), the most allowed is 1")
        // A publisher's own value counts: a negative or a non-number is no replay, never fewer.
        #expect(replay(.int(-1000)) == replay(nil))
        #expect(replay(.string("99")) == replay(nil))
        #expect(
            replay(.int(Int64.max))
                == "refused: it was replayed \(Int.max) times already (x-herald-replays), the most allowed is 3")
    }
}
