import HeraldSystem

/// Where rendered log lines go. Passed into a `Logger` so tests can capture lines in memory.
public protocol LogSink: Sendable {
    /// Writes one complete line (without the trailing newline).
    func write(line: String)
}

/// Writes lines to standard error, one line per write so lines from
/// concurrent threads never interleave.
public struct StandardErrorSink: LogSink {
    public init() {}

    public func write(line: String) { StandardError.write(line: line) }
}

/// Keeps lines in memory; tests read them back to assert on what was logged.
public final class MemoryLogSink: LogSink {
    private let storage = Locked<[String]>([])

    public init() {}

    public func write(line: String) { storage.withLock { $0.append(line) } }

    /// Every line written so far, oldest first.
    public var lines: [String] { storage.withLock { $0 } }
}
