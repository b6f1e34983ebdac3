import HeraldCore

/// A command's arguments after parsing: option values, flags and positionals.
///
/// Options are declared up front so an unknown `--optoin` is an error with a
/// did-you-mean instead of being silently ignored.
public struct ParsedArguments: Sendable, Equatable {
    public var options: [String: String] = [:]
    /// Every value of each repeatable option, in order (`--channel a --channel b`); `options` holds the last.
    public var repeated: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    /// Parses `arguments` given the option names that take a value and the flags that don't.
    /// Accepts `--name value`, `--name=value`, `-h`/`--help`, and `--` to end options.
    /// An option of `repeatable` (each also in `options`) may be given
    /// several times; another given twice keeps its last value.
    public static func parse(
        _ arguments: [String], options: Set<String>, flags: Set<String>, repeatable: Set<String> = []
    ) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            if arg == "-h" || arg == "--help" { parsed.flags.insert("help"); continue }
            guard arg.hasPrefix("--") else {
                throw UsageError("unknown option '\(arg)'; options are spelled --name")
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option --\(name) needs a value")
                }
                parsed.options[name] = value
                if repeatable.contains(name) { parsed.repeated[name, default: []].append(value) }
            } else if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option --\(name) takes no value") }
                parsed.flags.insert(name)
            } else {
                let known = (options.union(flags)).map { "--" + $0 }
                throw UsageError("unknown option '--\(name)'\(Suggestions.didYouMean("--" + name, among: known))")
            }
        }
        return parsed
    }
}

extension ParsedArguments {
    /// Refuses positional arguments, for a command that takes none.
    func refusePositionals() throws(UsageError) {
        if let extra = positionals.first { throw UsageError("unexpected argument '\(extra)'") }
    }

    /// The value of `--name` as an integer in `range`; nil when not given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "--\(name): expected an integer from \(range.lowerBound) to \(range.upperBound), found '\(text)'")
        }
        return value
    }
}

/// A command line that cannot be understood: printed with the command's usage, exit status 64 (EX_USAGE).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
