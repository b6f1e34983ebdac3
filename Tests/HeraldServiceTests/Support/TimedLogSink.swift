import HeraldCore
import HeraldSystem

/// Keeps every log line with the instant it was written, so tests can assert
/// on what was logged and time it (a reconnect from "amqp connection lost" to
/// "amqp connected").
final class TimedLogSink: LogSink {
    struct Entry: Sendable {
        let at: ContinuousClock.Instant
        let line: String

        /// The integer field `name` of the (JSON) line, if it has one.
        func int(_ name: String) -> Int? {
            guard let range = line.range(of: "\"\(name)\":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    private let storage = Locked<[Entry]>([])

    func write(line: String) {
        let entry = Entry(at: .now, line: line)
        storage.withLock { $0.append(entry) }
    }

    /// Every line written so far, oldest first.
    var lines: [String] { storage.withLock { $0.map(\.line) } }

    /// The first line with message `message` written after `instant`.
    func first(_ message: String, after instant: ContinuousClock.Instant) -> Entry? {
        storage.withLock { $0.first { $0.at > instant && $0.line.contains("\"msg\":\"\(message)\"") } }
    }

    /// How many lines have message `message`.
    func count(_ message: String) -> Int {
        storage.withLock { $0.count { $0.line.contains("\"msg\":\"\(message)\"") } }
    }
}
