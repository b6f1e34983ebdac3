import HeraldCLI
import Testing

@Suite struct ArgumentParsingTests {
    @Test func optionsFlagsAndPositionals() throws {
        let parsed = try ParsedArguments.parse(
            ["--config=a.yaml", "--verbose", "event.json", "--routing-key", "chat.x", "--", "--literal"],
            options: ["config", "routing-key"], flags: ["verbose"])
        #expect(parsed.options == ["config": "a.yaml", "routing-key": "chat.x"])
        #expect(parsed.flags == ["verbose"])
        #expect(parsed.positionals == ["event.json", "--literal"])
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try ParsedArguments.parse(
            ["--channel", "a", "--channel=b", "--app", "x", "--app", "y"],
            options: ["channel", "app"], flags: [], repeatable: ["channel"])
        #expect(parsed.repeated == ["channel": ["a", "b"]])
        #expect(parsed.options == ["channel": "b", "app": "y"])
    }

    @Test func dashIsAPositional() throws {
        #expect(try ParsedArguments.parse(["-"], options: [], flags: []).positionals == ["-"])
    }

    @Test func flagWithValueIsRefused() {
        #expect(throws: UsageError("option --verbose takes no value")) {
            try ParsedArguments.parse(["--verbose=yes"], options: [], flags: ["verbose"])
        }
    }

    @Test func singleDashOptionsAreRefused() {
        #expect(throws: UsageError("unknown option '-c'; options are spelled --name")) {
            try ParsedArguments.parse(["-c", "x"], options: ["config"], flags: [])
        }
    }
}
