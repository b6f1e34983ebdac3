/// The providers Herald knows, by their target rules: what event decoding,
/// outcome parsing and the registry are given, so the names they accept and
/// the rules they apply come from the registration list
/// (`HeraldProviders.RegisteredProviders`), never from a list of their own.
public struct ProviderCatalog: Sendable {
    /// Every provider's rules, in registration order.
    public let rules: [any ProviderTargetRules]
    private let byName: [String: Int]
    private let byProvider: [Provider: Int]
    /// Every name an event may use: the canonical ones, then the aliases.
    public let acceptedNames: [String]
    /// Every field an event's target may give an address in, each once, in registration order.
    public let addressFields: [String]
    /// The top-level event sections providers read (`webpush`).
    public let eventSections: [String]
    /// Every kind of address, each once: the fields outcomes name an address by.
    public let addressKinds: [Target.Address.Kind]
    private let kindsByField: [String: Target.Address.Kind]
    /// The providers whose devices the registry holds.
    public let registrableProviders: [Provider]
    /// The providers whose device addresses differing only in case are one device (APNs).
    public let devicesIgnoringCase: Set<Provider>
    /// The fields an event, a device element of `targets` and the shorthand target may have (decoding checks them per event).
    let eventFieldNames: [String]
    let deviceTargetFieldNames: [String]
    /// Every field of a device element of `targets` that carries a provider's extras (APNs' `environment`), each once.
    let extraFieldNames: [String]
    /// The top-level fields of the shorthand target: `provider` and every address field.
    public let targetFieldNames: [String]

    public init(_ rules: [any ProviderTargetRules]) {
        self.rules = rules
        var byName: [String: Int] = [:]
        var byProvider: [Provider: Int] = [:]
        for (index, rule) in rules.enumerated() {
            byProvider[rule.provider] = index
            byName[rule.provider.rawValue] = index
        }
        for (index, rule) in rules.enumerated() {
            for alias in rule.aliases where byName[alias] == nil { byName[alias] = index }
        }
        self.byName = byName
        self.byProvider = byProvider
        acceptedNames = rules.map(\.provider.rawValue) + rules.flatMap(\.aliases)
        var seen = Set<String>()
        addressFields = rules.flatMap(\.addressFields).filter { seen.insert($0).inserted }
        eventSections = rules.compactMap(\.eventSection)
        var seenKinds = Set<String>()
        addressKinds = rules.flatMap(\.addressKinds).filter { seenKinds.insert($0.field).inserted }
        kindsByField = Dictionary(addressKinds.map { ($0.field, $0) }, uniquingKeysWith: { first, _ in first })
        registrableProviders = rules.filter { !$0.registrableKinds.isEmpty }.map(\.provider)
        devicesIgnoringCase = Set(rules.filter(\.devicesIgnoreCase).map(\.provider))
        targetFieldNames = ["provider"] + addressFields
        var seenExtras = Set(targetFieldNames + Event.deviceTargetOnlyFieldNames)
        extraFieldNames = rules.flatMap(\.extraFields).filter { seenExtras.insert($0).inserted }
        deviceTargetFieldNames = targetFieldNames + Event.deviceTargetOnlyFieldNames + extraFieldNames
        eventFieldNames = Event.fieldNames(targetFields: targetFieldNames, sections: eventSections)
    }

    /// The canonical names, in registration order.
    public var names: [String] { rules.map(\.provider.rawValue) }

    /// The providers, in registration order.
    public var providers: [Provider] { rules.map(\.provider) }

    /// The provider `name` (canonical or alias) names; nil for an unknown name.
    public func provider(named name: String) -> Provider? {
        byName[name].map { rules[$0].provider }
    }

    /// The rules of `provider`, if it is in the catalog.
    public func rules(for provider: Provider) -> (any ProviderTargetRules)? {
        byProvider[provider].map { rules[$0] }
    }

    /// The kind of address an outcome's `field` holds, if any provider has it.
    public func addressKind(field: String) -> Target.Address.Kind? {
        kindsByField[field]
    }

}
