/// How severe a log line is; lines below the configured level are not rendered.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case trace, debug, info, notice, warning, error, critical

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The lower-case name used in config (`log.level`) and in every rendered line.
    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// Parses a configured level name (`info`, `warning`, ...); `warn` is accepted for `warning`.
    public init?(name: String) {
        if name == "warn" { self = .warning; return }
        guard let level = LogLevel.allCases.first(where: { $0.description == name }) else { return nil }
        self = level
    }
}
