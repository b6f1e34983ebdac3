/// `herald completion bash|zsh`: a shell completion script for the commands,
/// their subcommands and options, generated from the commands' own help texts
/// so it cannot drift from what the commands accept.
public struct CompletionCommand: Command {
    public init() {}

    public let name = "completion"
    public let summary = "Print a bash or zsh completion script"
    public var help: String {
        """
        Usage: herald completion bash|zsh

        Prints a completion script for herald's commands, subcommands and options.
          bash:  source <(herald completion bash)        (or save it in /etc/bash_completion.d/herald)
          zsh:   source <(herald completion zsh)         (or save it as _herald on $fpath)
        After an option that takes a file, file names complete.

        Options:
          -h, --help      show this help
        """
    }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let shell: String
        do {
            let parsed = try ParsedArguments.parse(arguments, options: [], flags: [])
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            guard parsed.positionals.count == 1, let given = parsed.positionals.first else {
                throw UsageError("name the shell: bash or zsh")
            }
            guard given == "bash" || given == "zsh" else {
                throw UsageError("unknown shell '\(given)'; bash and zsh are supported")
            }
            shell = given
        } catch {
            return usageFailure(error, console: console)
        }
        let words = HeraldCommandLine.standardCommands.map { CompletionWords(command: $0) }
        console.out(shell == "bash" ? Self.bash(words) : Self.zsh(words))
        return ExitStatus.success
    }

    static func bash(_ commands: [CompletionWords]) -> String {
        let cases = commands.map {
            "    \($0.name)) words=\"\(($0.subcommands + $0.options).joined(separator: " "))\" ;;"
        }
        return """
            # bash completion for herald (herald completion bash)
            _herald() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words=""
              if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) --help --version" -- "$cur"))
                return
              fi
              case "$prev" in
                \(Self.fileOptions)) COMPREPLY=($(compgen -f -- "$cur")); return ;;
              esac
              case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
              esac
              COMPREPLY=($(compgen -W "$words" -- "$cur"))
            }
            complete -o default -F _herald herald
            """
    }

    static func zsh(_ commands: [CompletionWords]) -> String {
        let described = commands.map {
            "    '\($0.name):\($0.summary.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'"
        }
        let cases = commands.map {
            "    \($0.name)) compadd -- \(($0.subcommands + $0.options).joined(separator: " ")) ;;"
        }
        return """
            #compdef herald
            # zsh completion for herald (herald completion zsh)
            _herald() {
              local -a commands
              commands=(
            \(described.joined(separator: "\n"))
              )
              if (( CURRENT == 2 )); then
                _describe 'herald command' commands
                return
              fi
              case $words[CURRENT-1] in
                \(Self.fileOptions)) _files; return ;;
              esac
              case $words[2] in
            \(cases.joined(separator: "\n"))
              esac
              _files
            }
            if (( $+functions[compdef] )); then compdef _herald herald; fi
            """
    }

    /// The options whose value is a file, as a shell `case` pattern: the
    /// fixed ones and every provider's device option that reads one (`--subscription`).
    static var fileOptions: String {
        let addresses = SendCommand.addresses.filter(\.option.readsJSONFile).map { "--" + $0.option.field }
        return (["--config", "--*-file", "--*-key"] + addresses + ["--record", "--tls-dir", "--ca-file"]).joined(
            separator: "|")
    }
}

/// The words one command completes: its subcommands (the first word of each
/// line under `Subcommands:` in its help) and its options (every `--option`
/// its help names).
struct CompletionWords: Equatable {
    let name: String
    let summary: String
    let subcommands: [String]
    let options: [String]

    init(command: any Command) {
        name = command.name
        summary = command.summary
        var subcommands: [String] = []
        var inSubcommands = false
        for line in command.help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Subcommands:") { inSubcommands = true; continue }
            guard inSubcommands else { continue }
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first else {
                inSubcommands = false; continue
            }
            if word.first?.isLetter == true, !subcommands.contains(String(word)) { subcommands.append(String(word)) }
        }
        self.subcommands = subcommands
        var options: [String] = []
        var rest = Substring(command.help)
        while let start = rest.range(of: "--") {
            let tail = rest[start.upperBound...]
            let word = tail.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = word.first, first.isLetter, !options.contains("--" + word) {
                options.append("--" + String(word))
            }
            rest = tail[word.endIndex...]
        }
        self.options = options
    }
}
