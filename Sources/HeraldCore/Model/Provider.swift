/// A push service Herald delivers through. New providers (Web Push, HMS) add
/// a case here and a folder of their own.
public enum Provider: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Apple Push Notification service (HTTP/2, `POST /3/device/<token>`).
    case apns
    /// Firebase Cloud Messaging, HTTP v1 API.
    case fcm

    /// Every name an event may use: the canonical ones, then the aliases
    /// `ios` (APNs) and `android` (FCM). Matching is exact: lower case only.
    public static let acceptedNames = ["apns", "fcm", "ios", "android"]

    /// The provider an event names, accepting the aliases; `nil` otherwise.
    public init?(eventName name: String) {
        switch name {
        case "apns", "ios": self = .apns
        case "fcm", "android": self = .fcm
        default: return nil
        }
    }

    /// The canonical name (`apns`, `fcm`), as used in outcomes and routing keys.
    public var description: String { rawValue }
}
