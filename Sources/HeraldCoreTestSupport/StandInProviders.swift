import HeraldCore

extension Provider {
    /// The stand-in for APNs in Core and Pipeline tests (see ``StandInProviderRules``).
    public static let apns = Provider(rawValue: "apns")
    /// The stand-in for FCM in Core and Pipeline tests (see ``StandInProviderRules``).
    public static let fcm = Provider(rawValue: "fcm")
}

/// A fake provider's target rules, for the tests of HeraldCore and
/// HeraldPipeline, which must run without the real providers' modules: the
/// stand-ins carry the names, aliases and address fields of APNs and FCM, so
/// the tests' events read as real events do, and none of their own rules
/// (any non-empty string is a token; no device extras; no event section
/// unless given one). What the real providers check is tested in their
/// modules' suites.
public struct StandInProviderRules: ProviderTargetRules {
    public let provider: Provider
    public let displayName: String
    public let aliases: [String]
    public let addressKinds: [Target.Address.Kind]
    public let registrableKinds: [Target.Address.Kind]
    public let devicesIgnoreCase: Bool
    public let eventSection: String?

    public init(
        _ provider: Provider, displayName: String, aliases: [String] = [], addressKinds: [Target.Address.Kind],
        registrableKinds: [Target.Address.Kind] = [], devicesIgnoreCase: Bool = false, eventSection: String? = nil
    ) {
        self.provider = provider
        self.displayName = displayName
        self.aliases = aliases
        self.addressKinds = addressKinds
        self.registrableKinds = registrableKinds
        self.devicesIgnoreCase = devicesIgnoreCase
        self.eventSection = eventSection
    }

    /// APNs' stand-in: `token` targets (`ios` is an alias), registered, compared ignoring case.
    public static let apns = StandInProviderRules(
        .apns, displayName: "APNs", aliases: ["ios"], addressKinds: [.token], registrableKinds: [.token],
        devicesIgnoreCase: true)
    /// FCM's stand-in: `token`, `fid`, `topic` or `condition` targets (`android` is an alias), tokens and FIDs registered.
    public static let fcm = StandInProviderRules(
        .fcm, displayName: "FCM", aliases: ["android"], addressKinds: [.token, .fid, .topic, .condition],
        registrableKinds: [.token, .fid])

    public var addressFields: [String] { addressKinds.map(\.field) }
    public var targetRule: String { "a \(displayName) target needs one of \(addressFields.joined(separator: ", "))" }

    public func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target {
        guard let kind = addressKinds.first(where: { $0.field == field }) else {
            throw .failed(EventError(field: fields.path(field), message: "not a \(displayName) address"))
        }
        let value =
            kind.isDevice ? try fields.deviceAddress(field, what: "a device token") : try fields.addressString(field)
        return Target(provider: provider, address: Target.Address(kind, value))
    }

    /// The section as given, checked to be an object (event decoding checks that).
    public func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras {
        ProviderExtras(section.object)
    }
}

extension ProviderCatalog {
    /// The stand-ins for APNs and FCM, in the real list's order.
    public static let standIns = ProviderCatalog([StandInProviderRules.apns, StandInProviderRules.fcm])
}
