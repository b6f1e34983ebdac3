/// A push service Herald delivers through, by its canonical name: `apns`,
/// `fcm`, `webpush`. The name is what outcomes, routing keys, config sections
/// and metric labels carry.
///
/// The set is open: each provider module declares its own
/// (`extension Provider { static let apns = … }`) with its
/// ``ProviderTargetRules``, and the names an event may use are those of the
/// ``ProviderCatalog`` it is decoded with.
public struct Provider: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical name: lower case.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Provider, rhs: Provider) -> Bool { lhs.rawValue < rhs.rawValue }
}
