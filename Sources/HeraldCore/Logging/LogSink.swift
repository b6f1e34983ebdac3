import Glibc

/// Where rendered log lines go. Passed into a `Logger` so tests can capture lines in memory.
public protocol LogSink: Sendable {
    /// Writes one complete line (without the trailing newline).
    func write(line: String)
}

/// Writes lines to standard error, one `write(2)` per line so lines from
/// concurrent threads never interleave.
public struct StandardErrorSink: LogSink {
    public init() {}

    public func write(line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}

/// Keeps lines in memory; tests read them back to assert on what was logged.
public final class MemoryLogSink: LogSink {
    private let storage = Locked<[String]>([])

    public init() {}

    public func write(line: String) { storage.withLock { $0.append(line) } }

    /// Every line written so far, oldest first.
    public var lines: [String] { storage.withLock { $0 } }
}
