import HeraldCore

/// One app's section of `config.yaml` for one provider (`apps.<app>.apns`),
/// and everything Herald does with it: check it, build the provider from it,
/// throttle it, describe it.
///
/// This protocol is the seam between a provider module and the rest of
/// Herald. A provider module declares its section as a type conforming to it,
/// and `HeraldProviders.RegisteredProviders` lists that type: config
/// decoding, validation, `herald run`, `herald check` and the traffic control
/// learn providers from that list alone (docs/providers.md).
public protocol ProviderSettings: Decodable, Sendable, Equatable {
    /// The provider this section configures; its name is the section's key under an app.
    static var provider: Provider { get }

    /// The longest one request to the provider may take.
    var timeout: ConfigDuration { get }

    /// The app's sends per second through this provider at most, spaced
    /// evenly (burst 1); nil when the section sets no throttle.
    var sendsPerSecond: Double? { get }

    /// Checks what types alone cannot, recording each problem at its key below `path`.
    func validate(at path: ConfigPath, with checks: ConfigChecks, into issues: inout [ConfigIssue])

    /// Loads and proves the credentials (a key signs, a certificate opens) and
    /// says what HTTP client the provider needs. The client is made, possibly
    /// shared with other apps, before the provider.
    func setUp(_ context: ProviderSetupContext) throws(ProviderSetupError) -> ProviderSetup

    /// One line for `herald check`: where the provider sends and as whom, no secret.
    var summary: String { get }

    /// The topics a device of this app may carry as its own (a registry
    /// registration's `topic`); nil when the provider's devices have none.
    var deviceTopics: Set<String>? { get }

    /// Why a device of this app at `address` may not be registered: the rule
    /// that would refuse to send to it (Web Push: an endpoint the egress
    /// policy or `allowed_hosts` refuses), in words; nil when it may.
    func registrationRefusal(_ address: Target.Address) -> String?

    /// Why a route's override of an event field (`collapse_id`) cannot be
    /// sent through this provider, as `herald check` says it; nil when it can.
    static func routeOverrideProblem(field: String, value: String) -> String?
}

extension ProviderSettings {
    public var deviceTopics: Set<String>? { nil }
    public func registrationRefusal(_ address: Target.Address) -> String? { nil }
    public static func routeOverrideProblem(field: String, value: String) -> String? { nil }

    /// Whether `other` is a section of the same provider with the same values.
    public func isEqual(to other: any ProviderSettings) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
