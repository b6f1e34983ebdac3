/// The one logger Herald uses everywhere: levels, constant messages with
/// metadata, rendered as JSON or logfmt lines.
///
/// Loggers are values passed into each component (never a global), so a test
/// can hand in a `MemoryLogSink` and assert on what was written. Messages are
/// constant strings; everything variable goes into metadata.
///
/// - Important: Device tokens go in as `.token(...)` and come out masked to
///   their first 8 characters. Metadata keys that name secrets (`authorization`,
///   `password`, `private_key`, `access_token`, ...) are redacted whatever
///   their value, as a second line of defence.
public struct Logger: Sendable {
    /// Dotted component name, e.g. `herald.apns`.
    public private(set) var label: String
    public let level: LogLevel
    public let format: LogFormat
    private let sink: any LogSink
    private let clock: @Sendable () -> String
    private var metadata: [(String, LogValue)]

    /// - Parameters:
    ///   - clock: renders the current time for the `ts` field; injected so tests are stable.
    public init(
        label: String,
        level: LogLevel = .info,
        format: LogFormat = .json,
        sink: any LogSink = StandardErrorSink(),
        clock: @escaping @Sendable () -> String = { Timestamp.now().rfc3339(fractionDigits: 3) }
    ) {
        self.label = label
        self.level = level
        self.format = format
        self.sink = sink
        self.clock = clock
        self.metadata = []
    }

    /// A logger for a sub-component: same sink and level, a longer label.
    public func child(_ component: String) -> Logger {
        var copy = self
        copy.label = label + "." + component
        return copy
    }

    /// A logger that adds `metadata` to every line it writes.
    public func with(_ metadata: KeyValuePairs<String, LogValue>) -> Logger {
        var copy = self
        copy.metadata.append(contentsOf: metadata.map { ($0.key, $0.value) })
        return copy
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= self.level }

    /// Writes one line if `level` is enabled. `metadata` is an autoclosure: a
    /// line below the level costs a comparison, not the metadata's allocations
    /// (debug lines sit on per-request paths).
    public func log(
        _ level: LogLevel, _ message: StaticString,
        _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]
    ) {
        guard isEnabled(level) else { return }
        var fields = self.metadata
        fields.append(contentsOf: metadata().map { ($0.key, $0.value) })
        let line = LogLineRenderer.render(
            format: format, time: clock(), level: level, label: label,
            message: message.description, metadata: fields)
        sink.write(line: line)
    }

    public func trace(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.trace, message, metadata())
    }
    public func debug(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.debug, message, metadata())
    }
    public func info(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.info, message, metadata())
    }
    public func notice(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.notice, message, metadata())
    }
    public func warning(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.warning, message, metadata())
    }
    public func error(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:]) {
        log(.error, message, metadata())
    }
    public func critical(_ message: StaticString, _ metadata: @autoclosure () -> KeyValuePairs<String, LogValue> = [:])
    {
        log(.critical, message, metadata())
    }
}
