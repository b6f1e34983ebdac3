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
        validateConsumerTimeout(config, into: &issues)
        validateApps(config.apps, into: &issues)
        let router = routingRules(config, into: &issues)
        validateRetry(config.retry, at: .root.key("retry"), into: &issues)
        validateOutcomes(config.outcomes, at: .root.key("outcomes"), into: &issues)
        if let registry = config.registry { validateRegistry(registry, at: .root.key("registry"), into: &issues) }
        if config.http.hostAndPort == nil {
            issues.append(.init(.error, at: .root.key("http").key("listen"),
                                "expected host:port with a port from 0 (any free port) to 65535, found '\(config.http.listen.truncatedForMessage)'"))
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

    /// Reads `path` when it is a regular file within `limit`, else records
    /// why not. A `secret` file (a private key) readable by every user is a warning.
    func readFile(
        _ path: String, at location: ConfigPath, what: String, limit: BoundedFile.Limit, secret: Bool = false,
        into issues: inout [ConfigIssue]
    ) -> BoundedFile? {
        let resolved = resolve(path)
        let file: BoundedFile
        do {
            file = try BoundedFile(path: resolved, limit: limit)
        } catch {
            issues.append(.init(.error, at: location, "\(what) \(error)"))
            return nil
        }
        if secret && file.isReadableByOthers {
            issues.append(.init(.warning, at: location,
                                "\(what) '\(resolved)' is readable by every user (mode \(file.modeDescription)); chmod 600 it"))
        }
        return file
    }

    /// An https:// URL with a host and no user info: Herald never sends in
    /// clear text, and credentials in a URL would reach logs and outcomes.
    func checkHTTPSURL(_ url: String, at location: ConfigPath, what: String = "an https:// URL", into issues: inout [ConfigIssue]) {
        let shown = URLSecrets.redacted(url).truncatedForMessage
        guard let parsed = URLComponents(string: url), parsed.scheme == "https", let host = parsed.host, !host.isEmpty else {
            issues.append(.init(.error, at: location,
                                "expected \(what), found '\(shown)' (Herald never sends notifications in clear text)"))
            return
        }
        if URLSecrets.userInfo(of: url) != nil {
            issues.append(.init(.error, at: location,
                                "'\(shown)' carries user info (user:password@); give \(what) without credentials"))
        }
    }

    func checkRange(_ value: Int, _ range: ClosedRange<Int>, at location: ConfigPath, into issues: inout [ConfigIssue]) {
        if !range.contains(value) {
            issues.append(.init(.error, at: location,
                                "expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)"))
        }
    }
}
