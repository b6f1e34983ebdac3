// The config vocabulary (durations, paths, issues, connection settings) lives
// with the provider seam, since each provider's section is written in it; it
// is part of this module's API.
@_exported import HeraldProviderKit

/// The whole of `config.yaml` as decoded, before semantic validation.
///
/// Every section but `apps` is optional and has the defaults docs/configuration.md gives.
/// `ConfigLoader` decodes it and `ConfigValidator` checks what types cannot
/// (references between sections, exactly-one-of rules, files that must exist).
public struct Configuration: Sendable, Equatable, Decodable {
    public var amqp: AMQPSettings
    public var apps: [String: AppSettings]
    public var routes: [RouteSettings]
    public var retry: RetrySettings
    public var outcomes: OutcomeSettings
    public var http: HTTPSettings
    public var log: LogSettings
    /// On SIGTERM: how long events in flight may take to finish before Herald
    /// exits and leaves the rest to redelivery. Keep the orchestrator's grace period above it.
    public var shutdownDeadline: ConfigDuration
    /// While busy, how often the AMQP connection's thread and each HTTP/2
    /// client's thread look for work, instead of waking for every message
    /// (`LoopPacing`); `0s` wakes them for every message.
    public var ioPacing: ConfigDuration
    /// What `herald run` does when an app's credentials cannot be used.
    public var unusableCredentials: UnusableCredentials
    /// The device registry's database; nil: no registry.
    public var registry: RegistrySettings?
    /// `duplicate_window:` how long an event id, once handled, makes another
    /// event with that id a duplicate (dropped, not delivered again); `0s`: never.
    public var duplicateWindow: ConfigDuration

    /// `unusable_credentials:` — an app whose key cannot sign (or whose
    /// certificate or service account cannot be loaded) at start-up.
    public enum UnusableCredentials: String, Sendable, Decodable, CaseIterable {
        /// Herald does not start: the error names the app and the file (the default).
        case exit
        /// Herald starts for the other apps; `/readyz` fails naming the app,
        /// and that app's targets fail with the reason.
        case notReady = "not_ready"
    }

    enum CodingKeys: String, CodingKey {
        case amqp, apps, routes, retry, outcomes, http, log
        case shutdownDeadline = "shutdown_deadline"
        case ioPacing = "io_pacing"
        case unusableCredentials = "unusable_credentials"
        case registry
        case duplicateWindow = "duplicate_window"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        amqp = try c.decodeIfPresent(AMQPSettings.self, forKey: .amqp) ?? AMQPSettings()
        apps = try c.decode([String: AppSettings].self, forKey: .apps)
        routes = try c.decodeIfPresent([RouteSettings].self, forKey: .routes) ?? []
        retry = try c.decodeIfPresent(RetrySettings.self, forKey: .retry) ?? RetrySettings()
        outcomes = try c.decodeIfPresent(OutcomeSettings.self, forKey: .outcomes) ?? OutcomeSettings()
        http = try c.decodeIfPresent(HTTPSettings.self, forKey: .http) ?? HTTPSettings()
        log = try c.decodeIfPresent(LogSettings.self, forKey: .log) ?? LogSettings()
        shutdownDeadline = try c.decodeIfPresent(ConfigDuration.self, forKey: .shutdownDeadline) ?? .seconds(25)
        ioPacing = try c.decodeIfPresent(ConfigDuration.self, forKey: .ioPacing) ?? ConfigDuration(milliseconds: 2)
        unusableCredentials = try c.decodeIfPresent(UnusableCredentials.self, forKey: .unusableCredentials) ?? .exit
        registry = try c.decodeIfPresent(RegistrySettings.self, forKey: .registry)
        duplicateWindow = try c.decodeIfPresent(ConfigDuration.self, forKey: .duplicateWindow) ?? .seconds(600)
    }
}
