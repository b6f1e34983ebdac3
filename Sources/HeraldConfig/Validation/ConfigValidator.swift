import Foundation
import HeraldCore

/// Checks what types alone cannot: references between sections, exactly-one-of
/// rules, value ranges and files that must exist. Collects every problem
/// (not just the first) so `herald check` can list them all.
///
/// Relative file paths are resolved against `baseDirectory`, the directory of
/// the config file, so a config works from any working directory.
public struct ConfigValidator: Sendable {
    public let baseDirectory: String

    public init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
    }

    /// All issues, in the order of the sections in docs/configuration.md, and the router
    /// compiled from `routes:` (nil when a route has an error).
    public func validate(_ config: Configuration) -> (issues: [ConfigIssue], router: Router?) {
        var issues: [ConfigIssue] = []
        validateAMQP(config.amqp, at: .root.key("amqp"), into: &issues)
        validateApps(config.apps, into: &issues)
        let router = routingRules(config, into: &issues)
        validateRetry(config.retry, at: .root.key("retry"), into: &issues)
        validateOutcomes(config.outcomes, at: .root.key("outcomes"), into: &issues)
        if config.http.hostAndPort == nil {
            issues.append(.init(.error, at: .root.key("http").key("listen"),
                                "expected host:port with a port from 0 (any free port) to 65535, found '\(config.http.listen)'"))
        }
        if config.shutdownDeadline.milliseconds < 100 {
            issues.append(.init(.error, at: .root.key("shutdown_deadline"),
                                "expected at least 100ms, found \(config.shutdownDeadline) (events in flight need time to finish)"))
        }
        if config.ioPacing.milliseconds > 10 {
            issues.append(.init(.error, at: .root.key("io_pacing"),
                                "expected 0s (off) to 10ms, found \(config.ioPacing) (it is added to each hop's wait while busy)"))
        }
        return (issues, router)
    }

    /// `path` made absolute against the config file's directory.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
    }

    /// Checks that `path` names a readable regular file; returns its contents when it does.
    func readFile(_ path: String, at location: ConfigPath, what: String, into issues: inout [ConfigIssue]) -> Data? {
        let resolved = resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            issues.append(.init(.error, at: location, "\(what) '\(resolved)' does not exist"))
            return nil
        }
        guard !isDirectory.boolValue else {
            issues.append(.init(.error, at: location, "\(what) '\(resolved)' is a directory, expected a file"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            issues.append(.init(.error, at: location, "\(what) '\(resolved)' cannot be read (check its permissions)"))
            return nil
        }
        return data
    }

    func checkHTTPSURL(_ url: String, at location: ConfigPath, into issues: inout [ConfigIssue]) {
        guard let parsed = URLComponents(string: url), parsed.scheme == "https", let host = parsed.host, !host.isEmpty else {
            issues.append(.init(.error, at: location,
                                "expected an https:// URL, found '\(url)' (Herald never sends notifications in clear text)"))
            return
        }
    }

    func checkRange(_ value: Int, _ range: ClosedRange<Int>, at location: ConfigPath, into issues: inout [ConfigIssue]) {
        if !range.contains(value) {
            issues.append(.init(.error, at: location,
                                "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)"))
        }
    }
}
