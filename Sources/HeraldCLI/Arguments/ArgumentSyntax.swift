/// What one command line accepts — the options that take a value, the
/// flags, which options repeat, which take a file — declared once per
/// command (or subcommand): the parser reads arguments with it and shell
/// completion offers from it, so completion offers exactly what the parser
/// accepts.
public struct ArgumentSyntax: Sendable, Equatable {
    /// The options that take a value, without `--`, in the order completion offers them.
    public let options: [String]
    /// The options that take none, without `--`.
    public let flags: [String]
    /// The options that may be given several times (each also in `options`).
    public let repeatable: Set<String>
    /// The options whose value is a file or folder name (completion offers files after them).
    public let files: Set<String>
    /// The words a positional argument may be, when they are fixed (completion offers them).
    public let words: [String]
    /// Whether its positional arguments are file names (completion offers files too).
    public let fileArguments: Bool

    public init(
        options: [String] = [], flags: [String] = [], repeatable: Set<String> = [], files: Set<String> = [],
        words: [String] = [], fileArguments: Bool = false
    ) {
        self.options = options
        self.flags = flags
        self.repeatable = repeatable
        self.files = files
        self.words = words
        self.fileArguments = fileArguments
    }

    /// Parses the arguments after the command's (or subcommand's) name.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments.parse(arguments, options: Set(options), flags: Set(flags), repeatable: repeatable)
    }

    /// Every word starting with `--` it accepts, `--help` last.
    var optionWords: [String] { (options + flags).map { "--" + $0 } + ["--help"] }
}

/// How a command's command line is built: its own arguments, or a
/// subcommand first and then the subcommand's arguments. Completion is
/// generated from it (`CompletionCommand`).
public enum CommandSyntax: Sendable, Equatable {
    case arguments(ArgumentSyntax)
    case subcommands([Subcommand])

    /// One subcommand: its name and what follows it.
    public struct Subcommand: Sendable, Equatable {
        public let name: String
        public let syntax: ArgumentSyntax

        public init(_ name: String, _ syntax: ArgumentSyntax) {
            self.name = name
            self.syntax = syntax
        }
    }

    /// Every argument syntax it holds (its own, or each subcommand's).
    var all: [ArgumentSyntax] {
        switch self {
        case .arguments(let syntax): [syntax]
        case .subcommands(let subcommands): subcommands.map(\.syntax)
        }
    }
}
