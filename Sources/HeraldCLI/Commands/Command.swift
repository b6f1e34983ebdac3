/// One `herald <command>`: its name, a one-line summary for `herald --help`,
/// its full help text, and what it does.
public protocol Command: Sendable {
    var name: String { get }
    var summary: String { get }
    /// The text `herald <command> --help` prints: usage line, description, options.
    var help: String { get }
    /// Runs with the arguments after the command name; returns the process exit status.
    func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32
}

extension Command {
    /// A command line that cannot be understood: `herald <name>: <error>`
    /// and the help on standard error; returns ``ExitStatus/usage``.
    func usageFailure(_ error: any Error, console: any Console) -> Int32 {
        console.err("herald \(name): \(error)\n\n\(help)")
        return ExitStatus.usage
    }
}

/// Process exit statuses Herald uses, after BSD's sysexits.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The command ran and found problems (e.g. `check` on a broken config).
    public static let failure: Int32 = 1
    /// The command line itself was wrong.
    public static let usage: Int32 = 64
}
