/// One problem found by semantic validation: where, how bad, and what to do.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// Herald will not start with this config.
        case error
        /// Herald starts, but the config probably does not say what was meant.
        case warning
    }

    public var severity: Severity
    public var path: ConfigPath
    public var message: String

    public init(_ severity: Severity, at path: ConfigPath, _ message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    public var description: String {
        let prefix = severity == .warning ? "warning: " : ""
        return path.components.isEmpty ? prefix + message : "\(path): \(prefix)\(message)"
    }
}
