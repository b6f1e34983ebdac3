import HeraldYAML

/// A config Herald cannot run with: every error found, each with file, line,
/// column and key path, plus any warnings found along the way.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public let file: String
    /// Sorted by position (`sortedByPosition`).
    public let errors: [YAMLError]
    /// Sorted by position (`sortedByPosition`).
    public let warnings: [YAMLError]

    init(file: String, errors: [YAMLError], warnings: [YAMLError]) {
        self.file = file
        self.errors = errors.sortedByPosition()
        self.warnings = warnings.sortedByPosition()
    }

    /// One line per problem (the errors, then the warnings), then a count:
    /// what `herald check` and `herald run` print.
    public var description: String {
        var lines = errors.map(\.description) + warnings.map(\.description)
        lines.append(
            "\(file): \(Self.count(errors.count, "error"))"
                + (warnings.isEmpty ? "" : ", \(Self.count(warnings.count, "warning"))"))
        return lines.joined(separator: "\n")
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
