import HeraldCore

/// Dispatches `herald <command> ...` to the command, and prints the overview for `herald --help`.
public struct HeraldCommandLine: Sendable {
    public let commands: [any Command]

    public init(commands: [any Command] = HeraldCommandLine.standardCommands) {
        self.commands = commands
    }

    public static let standardCommands: [any Command] = [
        CheckCommand(), CompletionCommand(), DeadCommand(), InitCommand(), PublishCommand(), RegistryAdminCommand(),
        RunCommand(),
        SendCommand(), SimulateCommand(), TailCommand(),
        VersionCommand(),
    ]

    public var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map {
            "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary
        }
        return """
            Herald delivers push notifications from RabbitMQ to APNs, FCM and Web Push.

            Usage: herald <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            Run 'herald <command> --help' for a command's options.
            """
    }

    /// Runs the command named by `arguments[0]`; returns the exit status.
    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        guard let first = arguments.first else {
            console.err(overview)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(command.help)
            } else {
                console.out(overview)
            }
            return ExitStatus.success
        case "--version", "-V":
            return await VersionCommand().run([], environment: environment, console: console)
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                console.err(
                    "herald: unknown command '\(first)'\(Suggestions.didYouMean(first, among: commands.map(\.name)))\n"
                        + "Run 'herald --help' for the commands.")
                return ExitStatus.usage
            }
            return await command.run(Array(arguments.dropFirst()), environment: environment, console: console)
        }
    }
}
