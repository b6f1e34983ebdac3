/// Why a push subscription cannot be sent to: the field at fault and what
/// was found there, so one bad subscription becomes that target's failure
/// with a message a person can act on, not a failure of the whole event.
///
/// Messages never repeat the `auth` secret or the endpoint's path, which
/// together with the keys let anyone send to the browser.
public struct WebPushSubscriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The fields of a subscription as a browser's `PushSubscription.toJSON()` writes them.
    public enum Field: String, Sendable, Equatable {
        case subscription = "subscription"
        case endpoint = "subscription.endpoint"
        case keys = "subscription.keys"
        case p256dh = "subscription.keys.p256dh"
        case auth = "subscription.keys.auth"
    }

    public let field: Field
    /// What is wrong, worded to follow the field's name.
    public let problem: String

    public init(_ field: Field, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field.rawValue) \(problem)" }
}
