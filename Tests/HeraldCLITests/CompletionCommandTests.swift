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
            """
        let run = try await runTool(zsh, ["-f", "-c", driver])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run.output)")
        let registry = try #require(lines.first { $0.hasPrefix("compadd -- ") }, "\(lines)")
        for word in ["migrate", "add", "list-devices", "--config", "--json"] {
            #expect(registry.split(separator: " ").contains(Substring(word)), "registry completes \(word): \(registry)")
        }
        #expect(lines.contains { $0.hasPrefix("describe ") && $0.contains("check:Validate a config file") }, "\(lines)")
        #expect(lines.last == "files")
    }

    @Test func anUnknownShellIsAUsageError() async {
        let console = CapturedConsole()
        #expect(await HeraldCommandLine().run(["completion", "fish"], environment: [:], console: console) == 64)
        #expect(console.stderr.hasPrefix("herald completion: unknown shell 'fish'; bash and zsh are supported"))
    }

    @Test func wordsComeFromTheHelpText() {
        let words = CompletionWords(command: RegistryAdminCommand())
        #expect(
            words.subcommands == [
                "migrate", "add", "remove", "remove-device", "replace", "list-channels", "list-devices", "count",
                "stale", "import", "export",
            ])
        #expect(words.options.contains("--new-token") && words.options.contains("--after"))
        #expect(words.options.contains("--batch-size"))
    }
}
