/// APNs limits that bind more than one request: a route's `collapse_id` is
/// checked against them (``APNsSettings/routeOverrideProblem(field:value:)``),
/// and FCM forwards the `apns` block of a message to APNs, so they are
/// written once, here.
public enum APNsLimits {
    /// `apns-collapse-id` may be at most this many bytes (else 400 BadCollapseId).
    public static let collapseIDBytes = 64
}
