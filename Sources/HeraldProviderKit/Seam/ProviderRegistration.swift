import HeraldCore

/// One provider as the registration list holds it: its target rules (what
/// event decoding, outcomes and the registry need) and its config section
/// type (what config, `herald run` and `herald check` need). A provider
/// module exports one; `HeraldProviders.RegisteredProviders` lists them.
public struct ProviderRegistration: Sendable {
    public let targets: any ProviderTargetRules
    public let settings: any ProviderSettings.Type

    public init(targets: any ProviderTargetRules, settings: any ProviderSettings.Type) {
        precondition(
            targets.provider == settings.provider, "a provider's target rules and config section name the same provider"
        )
        self.targets = targets
        self.settings = settings
    }

    public var provider: Provider { targets.provider }
}
