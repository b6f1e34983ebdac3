/// How urgently a notification should reach the device, in Herald's own
/// words: the event's `priority`, a route's `priority` match and override.
///
/// Events write `"high"`, `"normal"` or `"low"` (or `10`, `5`, `1`, see
/// `Event.decode`). Each provider maps it to its own scale in its module:
/// APNs' `apns-priority` (`APNsPriority`, HeraldAPNs), FCM's
/// `android.priority` (HeraldFCM), Web Push's `Urgency` (HeraldWebPush).
public enum Priority: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Deliver now; wakes the device.
    case high
    /// Deliver considering the device's power; may be grouped and delayed.
    case normal
    /// Deliver when convenient, never waking the device.
    case low

    public var description: String { rawValue }
}
