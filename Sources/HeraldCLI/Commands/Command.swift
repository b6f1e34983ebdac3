/// One `herald <command>`: its name, a one-line summary for `herald --help`,
/// its full help text, and what it does.
public protocol Command: Sendable {
    var name: String { get }
    var summary: String { get }
    /// The text `herald <command> --help` prints: usage line, description, options.
    var help: String { get }
    /// What its command line accepts: what it parses with and what completion offers.
    var syntax: CommandSyntax { get }
    /// Runs with the arguments after the command name; returns the process exit status.
    func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32
}

extension Command {
    /// A command line that cannot be understood: `herald <name>: <error>`
    /// and where the help is, two lines on standard error; returns ``ExitStatus/usage``.
    func usageFailure(_ error: any Error, console: any Console) -> Int32 {
        console.err("herald \(name): \(error)\n\(Self.helpHint(name))")
        return ExitStatus.usage
    }

    /// The line under a usage error that says where the help is.
    static func helpHint(_ name: String) -> String { "Run 'herald \(name) --help' for usage." }
}

/// Process exit statuses Herald uses, after BSD's sysexits.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The command ran and found problems (e.g. `check` on a broken config).
    public static let failure: Int32 = 1
    /// The command line itself was wrong.
    public static let usage: Int32 = 64
    /// A service the command needs could not be reached (the broker: down,
    /// refusing, not answering within `--timeout`).
    public static let unavailable: Int32 = 69
}

/// A command without subcommands: its arguments follow its name, read by
/// one ``ArgumentSyntax``.
protocol SimpleCommand: Command {
    /// What follows the command's name.
    var argumentSyntax: ArgumentSyntax { get }
}

extension SimpleCommand {
    public var syntax: CommandSyntax { .arguments(argumentSyntax) }
}
