import HeraldCore
import HeraldProviders

/// A `herald send` option giving a device's address: `--<field> <placeholder>`.
struct SendAddressOption: Sendable, Equatable {
    /// The event target field the option fills, and the option's name.
    let field: String
    /// The value's name in the usage line: `TOKEN`, `FILE`.
    let placeholder: String
    /// What the value is, for the help.
    let help: String
    /// Whether the value names a file holding the field's JSON object (a
    /// subscription) rather than being the field's string.
    var readsJSONFile = false

    /// `--token TOKEN`: the device token of APNs and FCM.
    static let token = SendAddressOption(field: "token", placeholder: "TOKEN", help: "the device token")
}

/// How `herald send` takes each provider's devices: the command line's own
/// table, one row per registered provider (a provider without a row takes
/// no device from the command line). Each option fills the event target
/// field of its name, which the provider's target rules then decode.
enum SendAddressOptions {
    static let byProvider: [Provider: [SendAddressOption]] = [
        .apns: [.token],
        .fcm: [
            .token,
            SendAddressOption(
                field: "fid", placeholder: "FID",
                help: "the device's Firebase installation ID, instead of --token"),
            SendAddressOption(
                field: "topic", placeholder: "TOPIC", help: "an FCM topic name (without /topics/), instead of --token"),
            SendAddressOption(
                field: "condition", placeholder: "EXPR",
                help: "an FCM condition ('a' in topics && 'b' in topics), instead of --token"),
        ],
        .webpush: [
            SendAddressOption(
                field: "subscription", placeholder: "FILE",
                help: "a browser's push subscription, the JSON of PushSubscription.toJSON()",
                readsJSONFile: true)
        ],
    ]

    /// Every registered provider's device options, each once in registration
    /// order, with the providers that take it.
    static let all: [(option: SendAddressOption, providers: [Provider])] = {
        var merged: [(option: SendAddressOption, providers: [Provider])] = []
        for provider in ProviderCatalog.registered.providers {
            for option in byProvider[provider] ?? [] {
                if let index = merged.firstIndex(where: { $0.option.field == option.field }) {
                    merged[index].providers.append(provider)
                } else {
                    merged.append((option, [provider]))
                }
            }
        }
        return merged
    }()
}
