import Foundation
@testable import HeraldCLI
import HeraldTestSupport
import Testing

/// The completion scripts, run by the real shells: bash's `complete` machinery
/// driven through COMP_WORDS, zsh's with its completion builtins recorded.
@Suite struct CompletionCommandTests {
    func script(_ shell: String) async throws -> String {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(["completion", shell], environment: [:], console: console)
        try #require(status == 0, "herald completion \(shell): \(console.stderr)")
        return console.stdout
    }

    /// What bash completes for `words`, the last one being completed.
    func bashCompletes(_ words: [String]) async throws -> [String] {
        let file = NSTemporaryDirectory() + "herald-completion-\(UInt64.random(in: 0...UInt64.max)).bash"
        try await script("bash").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let run = try await runTool(
            "/bin/bash",
            [
                "-c",
                "source \(file); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _herald; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ])
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsSubcommandsAndOptions() async throws {
        #expect(try await bashCompletes(["herald", "re"]) == ["registry"])
        #expect(try await bashCompletes(["herald", "c"]) == ["check", "completion"])
        #expect(try await bashCompletes(["herald", "registry", "list-"]) == ["list-channels", "list-devices"])
        #expect(try await bashCompletes(["herald", "check", "--onl"]) == ["--online"])
        #expect(try await bashCompletes(["herald", "send", "--pro"]).contains("--provider"))
        #expect(try await bashCompletes(["herald", "completion", ""]) == ["--help", "bash", "zsh"])
    }

    /// After a subcommand group's name, its subcommands and nothing else;
    /// after a subcommand, that subcommand's options only.
    @Test func bashCompletesASubcommandGroupFromItsModel() async throws {
        #expect(try await bashCompletes(["herald", "dead", ""]) == ["list", "show", "replay", "purge"])
        #expect(
            try await bashCompletes(["herald", "registry", ""]) == [
                "migrate", "add", "remove", "remove-device", "replace", "list-channels", "list-devices", "count",
                "stale", "import", "export",
            ])
        #expect(
            try await bashCompletes(["herald", "dead", "list", "--"]) == [
                "--config", "--amqp", "--amqp-file", "--timeout", "--limit", "--json", "--help",
            ])
        #expect(
            try await bashCompletes(["herald", "dead", "purge", "--"]) == [
                "--config", "--amqp", "--amqp-file", "--timeout", "--yes", "--help",
            ])
        #expect(
            try await bashCompletes(["herald", "registry", "count", "--"]) == [
                "--config", "--app", "--channel", "--json", "--help",
            ])
        #expect(try await bashCompletes(["herald", "dead", "list", "--limit", ""]) == [], "a number, not a word")
    }

    @Test func bashCompletesInit() async throws {
        #expect(
            try await bashCompletes(["herald", "init", "--"]) == [
                "--config", "--app", "--p8", "--key-id", "--team-id", "--bundle-id", "--environment",
                "--service-account", "--endpoint", "--ca-file", "--no-apns", "--no-fcm", "--non-interactive",
                "--dry-run", "--offline", "--help",
            ])
        #expect(try await bashCompletes(["herald", "init", "--no-"]) == ["--no-apns", "--no-fcm"])
    }

    /// Every option completion offers, for every command and subcommand, is
    /// one the command accepts: given it (with a value when it takes one)
    /// and --help, each prints its help.
    @Test func completionOffersNoOptionACommandRefuses() async throws {
        for command in HeraldCommandLine.standardCommands {
            let lines: [(words: [String], syntax: ArgumentSyntax)] =
                switch command.syntax {
                case .arguments(let syntax): [([command.name], syntax)]
                case .subcommands(let subcommands): subcommands.map { ([command.name, $0.name], $0.syntax) }
                }
            for (words, syntax) in lines {
                let offered = try await bashCompletes(["herald"] + words + ["--"])
                #expect(!offered.isEmpty, "\(words)")
                for option in offered {
                    let value = syntax.options.contains(String(option.dropFirst(2))) ? ["x"] : []
                    let console = CapturedConsole()
                    let status = await HeraldCommandLine().run(
                        words + [option] + value + ["--help"], environment: [:], console: console)
                    #expect(status == 0, "herald \(words.joined(separator: " ")) \(option): \(console.stderr)")
                }
            }
        }
    }

    @Test func bashCompletesFileNamesAfterConfig() async throws {
        let directory = NSTemporaryDirectory() + "herald-completion-dir-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: directory + "/staging-config.yaml", contents: Data()))
        #expect(
            try await bashCompletes(["herald", "run", "--config", "\(directory)/staging-c"]) == [
                "\(directory)/staging-config.yaml"
            ])
        #expect(
            try await bashCompletes(["herald", "registry", "import", "\(directory)/staging-c"]) == [
                "\(directory)/staging-config.yaml"
            ], "import reads a file")
        #expect(
            try await bashCompletes(["herald", "publish", "\(directory)/"]) == ["\(directory)/staging-config.yaml"],
            "publish reads a file")
        #expect(try await bashCompletes(["herald", "dead", "show", "\(directory)/"]) == [], "an ID is no file")
    }

    @Test func zshScriptParsesAndOffersTheSameWords() async throws {
        let zsh = "/usr/bin/zsh"
        try #require(FileManager.default.isExecutableFile(atPath: zsh), "zsh is missing: run scripts/bootstrap")
        let file = NSTemporaryDirectory() + "herald-completion-\(UInt64.random(in: 0...UInt64.max)).zsh"
        try await script("zsh").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parse = try await runTool(zsh, ["-n", file])
        #expect(parse.status == 0, "zsh -n: \(parse.output)")
        // The completion builtins print what they were given.
        let driver = """
            compadd() { print -r -- "compadd $*" }
            _describe() { print -r -- "describe ${(P)2}" }
            _files() { print -r -- files }
            source \(file)
            words=(herald registry ''); CURRENT=3; _herald
            words=(herald ''); CURRENT=2; _herald
            words=(herald run --config ''); CURRENT=4; _herald
            words=(herald dead list ''); CURRENT=4; _herald
            words=(herald init --p8 ''); CURRENT=4; _herald
            words=(herald dead list --limit ''); CURRENT=5; _herald
            words=(herald dead ''); CURRENT=3; _herald
            """
        let run = try await runTool(zsh, ["-f", "-c", driver])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run.output)")
        #expect(
            lines == [
                "compadd -- migrate add remove remove-device replace list-channels list-devices count stale import"
                    + " export",
                lines.first { $0.hasPrefix("describe ") } ?? "describe",
                "files",
                "compadd -- --config --amqp --amqp-file --timeout --limit --json --help",
                "files",
                "compadd -- list show replay purge",
            ], "\(lines)")
        #expect(lines.contains { $0.hasPrefix("describe ") && $0.contains("check:Validate a config file") }, "\(lines)")
    }

    @Test func anUnknownShellIsAUsageError() async {
        let console = CapturedConsole()
        #expect(await HeraldCommandLine().run(["completion", "fish"], environment: [:], console: console) == 64)
        #expect(console.stderr.hasPrefix("herald completion: unknown shell 'fish'; bash and zsh are supported"))
    }

    /// The command model is what the parsers read with: an option the model
    /// has parses, one it lacks is refused.
    @Test func theModelIsWhatTheParserReads() throws {
        let dead = DeadCommand()
        #expect(throws: Never.self) { try dead.syntax(for: .list).parse(["--json", "--limit", "3"]) }
        #expect(throws: UsageError.self) { try dead.syntax(for: .purge).parse(["--json"]) }
        let registry = RegistryAdminCommand()
        let parsed = try registry.syntax(for: .add).parse(["--channel", "a", "--channel", "b"])
        #expect(parsed.repeated["channel"] == ["a", "b"])
        #expect(throws: UsageError.self) { try registry.syntax(for: .count).parse(["--token", "t"]) }
    }
}
