import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldProviderKit
import HeraldWebPush

/// The providers Herald delivers through: the one list the rest of Herald
/// learns them from (event decoding, outcomes, the registry, config sections
/// and their validation, building providers, throttles, `herald check`).
/// A new provider is a module of its own and one line here (docs/providers.md).
public enum RegisteredProviders {
    /// Every provider, in the order names are listed and sections checked.
    public static let all: [ProviderRegistration] = [
        .apns,
        .fcm,
        .webpush,
    ]

    /// Each provider's `apps.<app>.<provider>` section type.
    public static var sections: [any ProviderSettings.Type] { all.map(\.settings) }
}

extension ProviderCatalog {
    /// The registered providers' target rules: what events, outcomes and the registry are decoded with.
    public static let registered = ProviderCatalog(RegisteredProviders.all.map(\.targets))
}
