import Foundation
import HeraldConfig

/// `herald check`: validates a config without starting anything, so a typo is
/// found at deploy time, not at the first notification.
public struct CheckCommand: Command {
    public init() {}

    public let name = "check"
    public let summary = "Validate a config file and the key files it names"
    public var help: String {
        """
        Usage: herald check [--config FILE]

        Parses and validates FILE: YAML syntax, ${VAR} expansion, every key and
        type, references between sections (routes naming apps), exactly one
        credential per provider, and that key files exist and look right.
        Prints a summary and exits 0, or prints every problem as
        file:line:column: key.path: message and exits 1.

        Options:
          --config FILE   the config file (default: config.yaml, or $HERALD_CONFIG)
          -h, --help      show this help
        """
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let file: String
        do {
            let parsed = try ParsedArguments.parse(arguments, options: ["config"], flags: [])
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
            file = parsed.configFile(environment: environment)
        } catch {
            console.err("herald check: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        guard let loaded = loadConfig(file, environment: environment, console: console) else { return ExitStatus.failure }
        console.out(ConfigSummary(loaded).text)
        return ExitStatus.success
    }
}
