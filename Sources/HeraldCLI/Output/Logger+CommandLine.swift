import HeraldCore

extension Logger {
    /// The logger of a one-shot command (everything but `herald run` and
    /// `herald simulate`): its lines are for the person at the terminal, so
    /// they are logfmt (`level=warning msg="..."`), whatever the config's
    /// `log.format` says for the service, and only from `level` up (the
    /// command reports its own failures itself).
    static func commandLine(label: String, level: LogLevel = .warning) -> Logger {
        Logger(label: label, level: level, format: .logfmt)
    }
}
