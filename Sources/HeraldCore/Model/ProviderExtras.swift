/// What a target or an event carries for one provider beyond Herald's own
/// fields: an APNs device's own environment and topic, a Web Push
/// subscription's keys (``Target/extras``); an event's `apns`, `fcm` or
/// `webpush` section (``Event/providerSections``).
///
/// The value is of the provider's own type, which Herald's event model holds
/// without reading: the provider's rules make it when they decode a target
/// (``ProviderTargetRules/decodeTarget(field:of:)``,
/// ``ProviderTargetRules/decodeExtras(of:)``,
/// ``ProviderTargetRules/registeredExtras(_:)``) or an event's section
/// (``ProviderTargetRules/decodeEventSection(_:)``), and the provider reads it
/// as its type with ``as(_:)``, through an accessor of its module
/// (`target.apns`, `event.apns`).
public struct ProviderExtras: Sendable, Hashable {
    private let value: (any Hashable & Sendable)?

    /// No extras: most targets.
    public init() {
        value = nil
    }

    /// A provider's own value.
    public init(_ value: some Hashable & Sendable) {
        self.value = value
    }

    /// Whether the target carries nothing beyond its address.
    public var isEmpty: Bool { value == nil }

    /// The value as the provider's type; nil when there is none or it is of another type.
    public func `as`<Value: Hashable & Sendable>(_ type: Value.Type) -> Value? {
        value as? Value
    }

    public static func == (lhs: ProviderExtras, rhs: ProviderExtras) -> Bool {
        switch (lhs.value, rhs.value) {
        case (nil, nil): true
        case (let left?, let right?): AnyHashable(left) == AnyHashable(right)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        if let value { hasher.combine(AnyHashable(value)) }
    }
}
