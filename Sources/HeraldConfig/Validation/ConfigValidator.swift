import HeraldCore
import HeraldProviderKit

/// Checks what types alone cannot: references between sections, exactly-one-of
/// rules, value ranges and files that must exist. Collects every problem
/// (not just the first) so `herald check` can list them all.
///
/// Relative file paths are resolved against `baseDirectory`, the directory of
/// the config file, so a config works from any working directory.
public struct ConfigValidator: Sendable {
    public let baseDirectory: String
    /// The providers apps may have sections for, in the order messages list them.
    public let providers: [ProviderRegistration]
    /// Their target rules: the names routes may give a provider by.
    let catalog: ProviderCatalog

    public init(baseDirectory: String, providers: [ProviderRegistration]) {
        self.baseDirectory = baseDirectory
        self.providers = providers
        catalog = ProviderCatalog(providers.map(\.targets))
    }

    /// All issues, in the order of the sections in docs/configuration.md, and the router
    /// compiled from `routes:` (nil when a route has an error).
    public func validate(_ config: Configuration) -> (issues: [ConfigIssue], router: Router?) {
        var issues: [ConfigIssue] = []
        validateAMQP(config.amqp, at: .root.key("amqp"), into: &issues)
        validateConsumerTimeout(config, into: &issues)
        validateApps(config.apps, unusableCredentials: config.unusableCredentials, into: &issues)
        let router = routingRules(config, into: &issues)
        validateRetry(config.retry, at: .root.key("retry"), into: &issues)
        validateOutcomes(config.outcomes, at: .root.key("outcomes"), into: &issues)
        if let registry = config.registry { validateRegistry(registry, at: .root.key("registry"), into: &issues) }
        if config.http.hostAndPort == nil {
            issues.append(
                .init(
                    .error, at: .root.key("http").key("listen"),
                    "expected host:port with a port from 0 (any free port) to 65535, found '\(config.http.listen.truncatedForMessage)'"
                ))
        }
        if config.shutdownDeadline.milliseconds < 100 {
            issues.append(
                .init(
                    .error, at: .root.key("shutdown_deadline"),
                    "expected at least 100ms, found \(config.shutdownDeadline) (events in flight need time to finish)"))
        }
        if config.ioPacing.milliseconds > 10 {
            issues.append(
                .init(
                    .error, at: .root.key("io_pacing"),
                    "expected 0s (off) to 10ms, found \(config.ioPacing) (it is added to each hop's wait while busy)"))
        }
        return (issues, router)
    }

    /// The checks every section shares, resolving paths against `baseDirectory`.
    public var checks: ConfigChecks { ConfigChecks(baseDirectory: baseDirectory) }

    /// `path` made absolute against the config file's directory.
    public func resolve(_ path: String) -> String { checks.resolve(path) }
}
