import HeraldCore

/// A command whose first argument names a subcommand (`herald dead list`,
/// `herald registry add`): how such a command line is read is written once
/// here — `-h`/`--help` before or after the subcommand, an unknown
/// subcommand with a did-you-mean, the subcommand's own options, and every
/// usage error printed as `herald <command>: <error>` above the help, exit
/// status 64 — and each group supplies only its subcommands, their options
/// and its own checks.
protocol SubcommandGroup: Command {
    /// The subcommands, by name.
    associatedtype Subcommand: RawRepresentable<String>, CaseIterable
    /// What the group's checks make of a command line, for the subcommand to run with.
    associatedtype Line

    /// The usage error for a command line without a subcommand.
    var missingSubcommand: String { get }

    /// Parses the arguments after the subcommand's name (its options and flags).
    func parse(_ arguments: [String], for subcommand: Subcommand) throws(UsageError) -> ParsedArguments

    /// The group's own checks of a parsed command line (values, positionals).
    func read(_ parsed: ParsedArguments, for subcommand: Subcommand) throws(UsageError) -> Line
}

/// A subcommand group's command line: the subcommand to run and what the
/// group read, or the exit status when nothing is left to run (the help was
/// printed, or a usage error with it).
enum SubcommandLine<Subcommand, Line> {
    case run(Subcommand, Line)
    case exit(Int32)
}

extension SubcommandGroup {
    /// Reads `herald <name> <subcommand> [options]` (the arguments after the command's name).
    func readLine(_ arguments: [String], console: any Console) -> SubcommandLine<Subcommand, Line> {
        do {
            guard let first = arguments.first else { throw UsageError(missingSubcommand) }
            if first == "-h" || first == "--help" { console.out(help); return .exit(ExitStatus.success) }
            guard let subcommand = Subcommand(rawValue: first) else {
                throw UsageError(
                    "unknown subcommand '\(first)'"
                        + Suggestions.hint(for: first, among: Subcommand.allCases.map(\.rawValue)))
            }
            let parsed = try parse(Array(arguments.dropFirst()), for: subcommand)
            if parsed.flags.contains("help") { console.out(help); return .exit(ExitStatus.success) }
            return .run(subcommand, try read(parsed, for: subcommand))
        } catch {
            return .exit(usageFailure(error, console: console))
        }
    }

    /// `herald <name> <subcommand>`: how the subcommand's failures begin.
    func prefix(_ subcommand: Subcommand) -> String { "herald \(name) \(subcommand.rawValue)" }
}
