/// How one provider's targets are written and checked: what event decoding,
/// the registry, retries and `exclude_tokens` need to know of a provider.
///
/// A provider module implements it beside its provider; the registration list
/// (`HeraldProviders`) hands every provider's rules to decoding as a
/// ``ProviderCatalog``. Nothing outside a provider's rules asks which
/// provider a target is for.
public protocol ProviderTargetRules: Sendable {
    /// The provider these rules are for.
    var provider: Provider { get }
    /// The provider as messages name it: `APNs`, `FCM`, `Web Push`.
    var displayName: String { get }
    /// Other names an event may give the provider by (`ios` for APNs), matched exactly.
    var aliases: [String] { get }
    /// The fields of an event's target that hold this provider's address
    /// (`token`; `token`, `fid`, `topic`, `condition`; `subscription`).
    var addressFields: [String] { get }
    /// What a target of this provider needs, for the message of a target
    /// that gives another provider's field: `an APNs target needs a device "token"`.
    var targetRule: String { get }
    /// The kinds of address its targets have: outcomes name an address by its kind's field.
    var addressKinds: [Target.Address.Kind] { get }

    /// The target `fields` (an element of `targets`, or the event itself for
    /// the shorthand) gives in `field`, one of ``addressFields``; or why it
    /// cannot be sent to. Checks the address as the provider would.
    func decodeTarget(field: String, of fields: FieldReader) throws(TargetProblem) -> Target

    /// The address a target element gives, however malformed the rest: what
    /// the outcome of a refused target echoes. Nil when it gives none.
    func addressGiven(in fields: FieldReader) -> Target.Address?

    /// The target's provider and address as members of an event's target
    /// element, which ``decodeTarget(field:of:)`` reads back: what a retry carries.
    func eventMembers(of target: Target) -> [(String, JSONValue)]

    /// The fields of a device element of `targets`, beside its address and
    /// `channel`, that carry the device's own values for this provider (APNs:
    /// `environment`, `apns_topic`); empty for none. Another provider's target
    /// giving one is refused.
    var extraFields: [String] { get }
    /// The device's own values in its element's ``extraFields``, checked, as
    /// the target's ``Target/extras``; a problem names its field.
    func decodeExtras(of fields: FieldReader) throws(EventError) -> ProviderExtras
    /// The target's extras as members of its event element, after its
    /// `channel`, which ``decodeExtras(of:)`` reads back: what a retry carries.
    func extrasMembers(of target: Target) -> [(String, JSONValue)]
    /// Whether two device addresses that differ only in case are one device
    /// (hexadecimal APNs tokens): `exclude_tokens` matches them so.
    var devicesIgnoreCase: Bool { get }

    /// The address kinds a registry registration may give; empty when its
    /// devices are not registered.
    var registrableKinds: [Target.Address.Kind] { get }
    /// The field of a registry command that gives one of its devices whole,
    /// read by ``decodeTarget(field:of:)`` as an event's target is (Web Push:
    /// `subscription`, endpoint and keys); nil when commands give the
    /// address in its kind's own field (`token`, `fid`).
    var registrationTargetField: String? { get }
    /// What the registry keeps of a target decoded from
    /// ``registrationTargetField`` beside its address, by
    /// ``RegisteredDeviceField`` name (Web Push: the subscription's keys); a
    /// registered device's ``registeredExtras(_:)`` reads them back.
    func registeredDeviceValues(of target: Target) -> [String: String]
    /// Why a registration cannot give an address of `kind` (a topic is not a
    /// device); nil when it can. Asked before the address is looked at.
    func registrationProblem(kind: Target.Address.Kind) -> String?
    /// Why `address` cannot be a registered device, beyond the registry's own
    /// checks (empty, length, printable): its format (an APNs token is
    /// hexadecimal); nil when it can.
    func registrationProblem(_ address: Target.Address) -> String?
    /// The registry's columns beyond the address a registration of its
    /// devices may fill (APNs: `environment`, `topic`); empty for none.
    var registrationFields: [String] { get }
    /// Why `value` cannot be a registration's `field`, one of
    /// ``registrationFields``, as the registry's message says it; nil when it can.
    func registrationProblem(field: String, value: String) -> String?
    /// A registered device's ``Target/extras`` from its registration's
    /// ``registrationFields`` and its ``registeredDeviceValues(of:)``, which
    /// `column` reads by name.
    func registeredExtras(_ column: (String) -> String?) -> ProviderExtras

    /// A top-level section of the event this provider reads (`apns`, `fcm`,
    /// `webpush`) that Herald's event model does not decode itself; nil for none.
    var eventSection: String? { get }
    /// The event's ``eventSection``, checked and read into a value of the
    /// provider's own type, kept in ``Event/providerSections``; a problem
    /// names its field.
    func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras
}

extension ProviderTargetRules {
    public var aliases: [String] { [] }
    public var extraFields: [String] { [] }
    public func decodeExtras(of fields: FieldReader) throws(EventError) -> ProviderExtras { ProviderExtras() }
    public func extrasMembers(of target: Target) -> [(String, JSONValue)] { [] }
    public var devicesIgnoreCase: Bool { false }
    public var registrableKinds: [Target.Address.Kind] { [] }
    public var registrationTargetField: String? { nil }
    public func registeredDeviceValues(of target: Target) -> [String: String] { [:] }
    public func registrationProblem(kind: Target.Address.Kind) -> String? {
        registrableKinds.contains(kind) ? nil : "the registry holds no \(displayName) devices"
    }
    public func registrationProblem(_ address: Target.Address) -> String? { nil }
    public var registrationFields: [String] { [] }
    public func registrationProblem(field: String, value: String) -> String? { nil }
    public func registeredExtras(_ column: (String) -> String?) -> ProviderExtras { ProviderExtras() }
    public var eventSection: String? { nil }
    public func decodeEventSection(_ section: FieldReader) throws(EventError) -> ProviderExtras { ProviderExtras() }

    public func addressGiven(in fields: FieldReader) -> Target.Address? {
        addressKinds.lazy.compactMap { kind in fields.value(kind.field)?.stringValue.map { Target.Address(kind, $0) } }
            .first
    }

    public func eventMembers(of target: Target) -> [(String, JSONValue)] {
        [("provider", .string(provider.rawValue)), (target.address.field, .string(target.address.value))]
    }
}

/// The names of the values a registered device's row keeps for its provider
/// (``ProviderTargetRules/registeredDeviceValues(of:)``): one spelling for the
/// provider that gives them and the registry that stores them.
public enum RegisteredDeviceField {
    /// A Web Push subscription's public key (`keys.p256dh`).
    public static let p256dh = "p256dh"
    /// A Web Push subscription's authentication secret (`keys.auth`).
    public static let auth = "auth"
}

/// Why one target of an event cannot be sent to, and what its outcome is:
/// `invalid_token` when the device address itself is malformed (the device
/// is gone for good), `failed` otherwise.
public struct TargetProblem: Error, Sendable {
    public let error: EventError
    public let verdict: InvalidTarget.Verdict

    public init(_ error: EventError, verdict: InvalidTarget.Verdict) {
        self.error = error
        self.verdict = verdict
    }

    /// The target is written wrong: `failed`.
    public static func failed(_ error: EventError) -> TargetProblem { TargetProblem(error, verdict: .failed) }
    /// The device address is malformed: `invalid_token`.
    public static func badAddress(_ error: EventError) -> TargetProblem { TargetProblem(error, verdict: .invalidToken) }
}

extension FieldReader {
    /// The string address in `field` of a target, checked as every device
    /// address is (`what` names it: `a device token`): a string, not empty, at
    /// most ``Event/maxTokenBytes``. A malformed device address is `invalid_token`.
    public func deviceAddress(_ field: String, what: String) throws(TargetProblem) -> String {
        let address = try nonEmptyAddress(field, device: what)
        guard address.utf8.count <= Event.maxTokenBytes else {
            throw .badAddress(
                EventError(
                    field: path(field),
                    message: "is \(address.utf8.count) bytes, over the limit of \(Event.maxTokenBytes)"))
        }
        return address
    }

    /// The string address in `field` of a target that is not a device (a topic, a condition): a non-empty string.
    public func addressString(_ field: String) throws(TargetProblem) -> String {
        try nonEmptyAddress(field, device: nil)
    }

    private func nonEmptyAddress(_ field: String, device: String?) throws(TargetProblem) -> String {
        guard case .string(let address)? = value(field) else {
            throw .failed(.mismatch(path(field), expected: "a non-empty string", found: value(field) ?? .null))
        }
        guard !address.isEmpty else {
            guard let device else {
                throw .failed(.mismatch(path(field), expected: "a non-empty string", found: .string(address)))
            }
            throw .badAddress(EventError(field: path(field), message: "is empty; \(device) cannot be empty"))
        }
        return address
    }
}
