/// The request and response header names APNs defines.
public enum APNsHeaderName {
    public static let authorization = "authorization"
    public static let pushType = "apns-push-type"
    public static let topic = "apns-topic"
    public static let priority = "apns-priority"
    public static let expiration = "apns-expiration"
    public static let collapseID = "apns-collapse-id"
    public static let id = "apns-id"
    /// Sandbox only: the id to look the notification up in the Push Notifications Console.
    public static let uniqueID = "apns-unique-id"
}
