/// A push service Herald delivers through. A new provider adds a case here
/// and a folder of its own.
public enum Provider: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Apple Push Notification service (HTTP/2, `POST /3/device/<token>`).
    case apns
    /// Firebase Cloud Messaging, HTTP v1 API.
    case fcm
    /// Web Push (RFC 8030) to a browser's push service: messages encrypted
    /// for the subscription (RFC 8291), the sender identified by VAPID (RFC 8292).
    case webpush

    /// Every name an event may use: the canonical ones, then the aliases
    /// `ios` (APNs) and `android` (FCM). Matching is exact: lower case only.
    public static let acceptedNames = ["apns", "fcm", "webpush", "ios", "android"]

    /// The provider an event names, accepting the aliases; `nil` otherwise.
    public init?(eventName name: String) {
        switch name {
        case "apns", "ios": self = .apns
        case "fcm", "android": self = .fcm
        case "webpush": self = .webpush
        default: return nil
        }
    }

    /// The canonical name (`apns`, `fcm`, `webpush`), as used in outcomes and routing keys.
    public var description: String { rawValue }
}
