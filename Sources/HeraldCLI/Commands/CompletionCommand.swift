/// `herald completion bash|zsh`: a shell completion script for the commands,
/// their subcommands and options, generated from each command's
/// ``CommandSyntax`` — what its parser reads with — so it offers exactly
/// what the commands accept.
public struct CompletionCommand: SimpleCommand {
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

    var argumentSyntax: ArgumentSyntax { ArgumentSyntax(words: Self.shells) }

    /// The shells it writes a script for.
    static let shells = ["bash", "zsh"]

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        let shell: String
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            guard parsed.positionals.count == 1, let given = parsed.positionals.first else {
                throw UsageError("name the shell: bash or zsh")
            }
            guard Self.shells.contains(given) else {
                throw UsageError("unknown shell '\(given)'; bash and zsh are supported")
            }
            shell = given
        } catch {
            return usageFailure(error, console: console)
        }
        let commands = HeraldCommandLine.standardCommands
        console.out(shell == "bash" ? Self.bash(commands) : Self.zsh(commands))
        return ExitStatus.success
    }

    /// The bash script: after the command, its options (or, first, its
    /// subcommands; after a subcommand, the subcommand's options); after an
    /// option that takes a file, file names; after one that takes another
    /// value, nothing of herald's.
    static func bash(_ commands: [any Command]) -> String {
        func assign(_ syntax: ArgumentSyntax) -> String {
            let words = syntax.optionWords + syntax.words
            return "words=\"\(words.joined(separator: " "))\"; files=\"\(syntax.fileWords)\"; "
                + "values=\"\(syntax.valueWords)\"; fileArguments=\(syntax.fileArguments ? 1 : 0)"
        }
        let cases = commands.map { command -> String in
            switch command.syntax {
            case .arguments(let syntax):
                return "    \(command.name)) \(assign(syntax)) ;;"
            case .subcommands(let subcommands):
                let inner = subcommands.map { "          \($0.name)) \(assign($0.syntax)) ;;" }
                return """
                        \(command.name))
                          if [ "$COMP_CWORD" -eq 2 ]; then
                            COMPREPLY=($(compgen -W "\(subcommands.map(\.name).joined(separator: " "))" -- "$cur"))
                            return
                          fi
                          case "${COMP_WORDS[2]}" in
                    \(inner.joined(separator: "\n"))
                          esac ;;
                    """
            }
        }
        return """
            # bash completion for herald (herald completion bash)
            _herald() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
              local words="" files="" values="" fileArguments=0
              if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " ")) --help --version" -- "$cur"))
                return
              fi
              case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
              esac
              case " $files " in *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
              case " $values " in *" $prev "*) compopt +o default 2>/dev/null; COMPREPLY=(); return ;; esac
              COMPREPLY=($(compgen -W "$words" -- "$cur"))
              if [ "$fileArguments" -eq 1 ]; then
                COMPREPLY+=($(compgen -f -- "$cur"))
              else
                compopt +o default 2>/dev/null
              fi
            }
            complete -o default -F _herald herald
            """
    }

    /// The zsh script: the same words as ``bash(_:)``, the commands described by their summaries.
    static func zsh(_ commands: [any Command]) -> String {
        let described = commands.map {
            "    '\($0.name):\($0.summary.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'"
        }
        func assign(_ syntax: ArgumentSyntax) -> String {
            "offered=(\((syntax.optionWords + syntax.words).joined(separator: " "))); files=(\(syntax.fileWords)); "
                + "values=(\(syntax.valueWords)); fileArguments=\(syntax.fileArguments ? 1 : 0)"
        }
        let cases = commands.map { command -> String in
            switch command.syntax {
            case .arguments(let syntax):
                return "    \(command.name)) \(assign(syntax)) ;;"
            case .subcommands(let subcommands):
                let inner = subcommands.map { "          \($0.name)) \(assign($0.syntax)) ;;" }
                return """
                        \(command.name))
                          if (( CURRENT == 3 )); then
                            compadd -- \(subcommands.map(\.name).joined(separator: " "))
                            return
                          fi
                          case $words[3] in
                    \(inner.joined(separator: "\n"))
                          esac ;;
                    """
            }
        }
        return """
            #compdef herald
            # zsh completion for herald (herald completion zsh)
            _herald() {
              local -a commands offered files values
              local fileArguments=0
              commands=(
            \(described.joined(separator: "\n"))
              )
              if (( CURRENT == 2 )); then
                _describe 'herald command' commands
                return
              fi
              case $words[2] in
            \(cases.joined(separator: "\n"))
              esac
              if (( ${files[(Ie)$words[CURRENT-1]]} )); then _files; return; fi
              if (( ${values[(Ie)$words[CURRENT-1]]} )); then return; fi
              compadd -- $offered
              if (( fileArguments )); then _files; fi
            }
            if (( $+functions[compdef] )); then compdef _herald herald; fi
            """
    }
}

extension ArgumentSyntax {
    /// Its options that take a file, as shell words (`--config --amqp-file`).
    fileprivate var fileWords: String {
        options.filter(files.contains).map { "--" + $0 }.joined(separator: " ")
    }

    /// Its options that take another value, as shell words (`--limit --timeout`).
    fileprivate var valueWords: String {
        options.filter { !files.contains($0) }.map { "--" + $0 }.joined(separator: " ")
    }
}
