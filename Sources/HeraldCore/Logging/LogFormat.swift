/// How a log line is rendered: one JSON object per line (the default, for log
/// shippers) or logfmt `key=value` pairs (for humans at a terminal).
public enum LogFormat: String, Sendable, CaseIterable {
    case json
    case logfmt
}
