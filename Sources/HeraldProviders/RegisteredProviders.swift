import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviderKit
import HeraldWebPush

/// The providers Herald delivers through: the one list the rest of Herald
/// learns them from (config sections, validation, building providers,
/// throttles, `herald check`). A new provider is a module of its own and one
/// line here (docs/providers.md).
public enum RegisteredProviders {
    /// Each provider's `apps.<app>.<provider>` section type, in the order
    /// sections are listed and checked.
    public static let sections: [any ProviderSettings.Type] = [
        APNsSettings.self,
        FCMSettings.self,
        WebPushSettings.self,
    ]

    /// The section type of `provider`, if it is registered.
    public static func section(of provider: Provider) -> (any ProviderSettings.Type)? {
        sections.first { $0.provider == provider }
    }
}
