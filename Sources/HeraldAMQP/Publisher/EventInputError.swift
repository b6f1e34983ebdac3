/// One problem with an event of `herald publish`'s input; names the line.
public struct EventInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    /// 1-based; nil when the problem is with the input as a whole (or a file holding one event).
    public let line: Int?
    public let reason: String

    public init(source: String, line: Int?, reason: String) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    public var description: String {
        if let line { return "\(source):\(line): \(reason)" }
        return "\(source): \(reason)"
    }
}

/// Input `herald publish` refuses as a whole: every problem found, so one run
/// lists them all; nothing of it was published.
public struct EventInputProblems: Error, Sendable, Equatable, CustomStringConvertible {
    public let source: String
    public let problems: [EventInputError]

    public init(source: String, problems: [EventInputError]) {
        self.source = source
        self.problems = problems
    }

    /// One line per problem, then `source: N problems; nothing was published`.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (problems.map(\.description) + ["\(source): \(count); nothing was published"]).joined(separator: "\n")
    }
}
