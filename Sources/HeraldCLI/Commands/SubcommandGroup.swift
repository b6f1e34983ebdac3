import HeraldCore

/// A command whose first argument names a subcommand (`herald dead list`,
/// `herald registry add`): how such a command line is read is written once
/// here — `-h`/`--help` before or after the subcommand, an unknown
/// subcommand with a did-you-mean, the subcommand's own options, and every
/// usage error printed as `herald <command>: <error>` and a `--help` hint, exit
/// status 64 — and each group supplies only its subcommands, their options,
/// its own checks and what a subcommand does. Its `Command.run` is
/// ``runSubcommand(_:environment:console:)``.
protocol SubcommandGroup: Command {
    /// The subcommands, by name.
    associatedtype Subcommand: RawRepresentable<String>, CaseIterable
    /// What the group's checks make of a command line, for the subcommand to run with.
    associatedtype Line

    /// The usage error for a command line without a subcommand.
    var missingSubcommand: String { get }

    /// What follows the subcommand's name (its options and flags).
    func syntax(for subcommand: Subcommand) -> ArgumentSyntax

    /// The group's own checks of a parsed command line (values, positionals).
    func read(_ parsed: ParsedArguments, for subcommand: Subcommand) throws(UsageError) -> Line

    /// Runs `subcommand` on what the group read; returns the exit status.
    func run(_ subcommand: Subcommand, _ line: Line, environment: [String: String], console: any Console) async
        -> Int32
}

extension SubcommandGroup {
    /// Each subcommand with its own arguments.
    public var syntax: CommandSyntax {
        .subcommands(Subcommand.allCases.map { CommandSyntax.Subcommand($0.rawValue, syntax(for: $0)) })
    }

    /// Runs `herald <name> <subcommand> [options]` (the arguments after the
    /// command's name): the help, a usage error, or the subcommand.
    func runSubcommand(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let subcommand: Subcommand
        let line: Line
        do {
            guard let first = arguments.first else { throw UsageError(missingSubcommand) }
            if first == "-h" || first == "--help" { console.out(help); return ExitStatus.success }
            guard let named = Subcommand(rawValue: first) else {
                throw UsageError(
                    "unknown subcommand '\(first)'"
                        + Suggestions.hint(for: first, among: Subcommand.allCases.map(\.rawValue)))
            }
            let parsed = try syntax(for: named).parse(Array(arguments.dropFirst()))
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            (subcommand, line) = (named, try read(parsed, for: named))
        } catch {
            return usageFailure(error, console: console)
        }
        return await run(subcommand, line, environment: environment, console: console)
    }

    /// `herald <name> <subcommand>`: how the subcommand's failures begin.
    func prefix(_ subcommand: Subcommand) -> String { "herald \(name) \(subcommand.rawValue)" }
}
