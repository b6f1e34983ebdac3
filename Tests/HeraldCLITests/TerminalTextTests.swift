import Foundation
import HeraldAMQP
@testable import HeraldCLI
import HeraldCore
import HeraldTestSupport
import Testing

/// What a publisher or push service wrote reaches `herald tail` and `herald
/// dead` escaped: ESC, BEL, an OSC sequence or a C1 character is printed as
/// `\u001b` and the like, never as the byte a terminal acts on.
@Suite struct TerminalTextTests {
    static let esc = "\u{1B}"
    /// An OSC (retitles the window), a CSI (clears the screen), BEL and a C1 CSI.
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m"

    /// Whether `text` holds a byte of a control character: C0 but line feeds, DEL, or C1 (U+0080–U+009F in UTF-8).
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func theFieldRuleEscapesAndQuotesOnlyWhatHasAControlCharacter() {
        #expect(TerminalText.field("evt-1 plain words") == "evt-1 plain words")
        let escaped = TerminalText.field("evt" + Self.hostile)
        #expect(!Self.hasControl(escaped))
        #expect(escaped.lowercased() == #""evt\u001b]0;owned\u0007\u001b[2j\u009b31m""#)
        #expect(TerminalText.body([0xFF, 0x1B, 0x5B]) == "(not UTF-8; hexadecimal)\n00000000  ff 1b 5b")
        #expect(TerminalText.body(Array("a\n\tb\u{1B}c".utf8)) == "a\n\tb\\u001Bc")
    }

    @Test func tailPrintsAPublishersAndAPushServicesControlCharactersEscaped() async throws {
        let fixture = try BrokerCommandFixture("tail-escape")
        var outcome = Outcome(
            status: .failed, eventID: "evt" + Self.hostile, app: "chat", provider: .webpush,
            address: Target.Address(.endpoint, "https://push.example/" + Self.hostile),
            reason: "Bad" + Self.hostile, at: Timestamp(seconds: 1_700_000_000))
        outcome.detail = "words" + Self.hostile
        let published = outcome
        for json in [false, true] {
            let console = CapturedConsole()
            let tail = Task {
                await fixture.herald(
                    ["tail", "--config", fixture.configFile, "--count", "2"] + (json ? ["--json"] : []),
                    console: console)
            }
            try #require(
                await eventually(timeout: .seconds(90)) { console.stderr.contains("Ctrl-C to stop") },
                "\(console.stderr)")
            try await fixture.withConnection { connection in
                try await connection.publish(
                    exchange: fixture.topology.resultsExchange, routingKey: published.routingKey,
                    body: published.encoded)
                // Not JSON: the routing key is printed; raw control bytes in the body too with --json.
                try await connection.publish(
                    exchange: fixture.topology.resultsExchange, routingKey: "failed.apns.c" + Self.hostile,
                    body: Array(("{\"event_id\": \"" + Self.hostile + "\"}\n" + Self.hostile).utf8))
            }
            #expect(await tail.value == 0, "\(console.stderr)")
            #expect(!Self.hasControl(console.stdout), "\(console.stdout.debugDescription)")
            #expect(!console.stdout.utf8.contains(0x1B) && !console.stdout.utf8.contains(0x07))
            #expect(console.stdout.lowercased().contains(#"\u001b]0;owned\u0007"#), "\(console.stdout)")
            #expect(console.stdout.lowercased().contains(#"\u009b31m"#), "\(console.stdout)")
            if !json {
                #expect(console.stdout.lowercased().contains(#""failed.apns.c\u001b]0;owned"#), "\(console.stdout)")
            }
        }
        await fixture.cleanUp()
    }

    @Test func deadListAndShowPrintAPublishersControlCharactersEscaped() async throws {
        let fixture = try BrokerCommandFixture("dead-escape")
        let topology = fixture.topology
        let bodies: [[UInt8]] = [
            Array(("{\"id\": \"evt\u{9B}\"}" + Self.hostile).utf8), [0xFF, 0x1B, 0x5B, 0x32, 0x4A],
        ]
        try await fixture.withConnection { connection in
            for body in bodies {
                let delivery = AMQPDelivery(
                    body: body, exchange: topology.eventsExchange, routingKey: "chat." + Self.hostile,
                    redelivered: false,
                    tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
                    properties: AMQPProperties(
                        contentType: "application/json" + Self.esc, headers: ["tenant": .string("acme" + Self.hostile)],
                        persistent: true, messageID: "msg" + Self.hostile))
                try await connection.publish(
                    RetryRouting.deadLetterMessage(
                        for: delivery, error: "refused" + Self.hostile, topology: topology,
                        at: Timestamp(seconds: 1_700_000_000)), mandatory: true)
            }
        }
        let (listed, list) = await fixture.herald(["dead", "list", "--config", fixture.configFile])
        #expect(listed == 0, "\(list.stderr)")
        let (listedJSON, listJSON) = await fixture.herald(["dead", "list", "--json", "--config", fixture.configFile])
        #expect(listedJSON == 0, "\(listJSON.stderr)")
        var outputs = [list.stdout, listJSON.stdout]
        let ids = list.stdout.split(separator: "\n").dropFirst().map { String($0.prefix(10)) }
        #expect(ids.count == 2, "\(list.stdout)")
        for id in ids {
            let (shown, show) = await fixture.herald(["dead", "show", id, "--config", fixture.configFile])
            #expect(shown == 0, "\(show.stderr)")
            outputs.append(show.stdout)
        }
        for output in outputs {
            #expect(!Self.hasControl(output), "\(output.debugDescription)")
            #expect(output.lowercased().contains(#"\u001b]0;owned\u0007"#), "\(output)")
        }
        let shown = outputs.dropFirst(2).joined(separator: "\n")
        #expect(shown.contains("(not UTF-8; hexadecimal)\n00000000  ff 1b 5b 32 4a"), "\(shown)")
        #expect(shown.lowercased().contains(#"tenant: "acme\u001b]0;owned"#), "\(shown)")
        #expect(shown.lowercased().contains(#"routing key:    "chat.\u001b]0;owned"#), "\(shown)")
        #expect(list.stdout.lowercased().contains(#""refused\u001b]0;owned"#), "\(list.stdout)")
        await fixture.cleanUp()
    }
}
