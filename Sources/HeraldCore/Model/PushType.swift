/// What kind of push an event is, in Herald's own words: the event's
/// `push_type`, a route's `push_type` match and override, and what sets the
/// default priority (``defaultPriority``) every provider sends.
///
/// The names are Apple's `apns-push-type` values, since APNs is the provider
/// that distinguishes them; what each one requires of an APNs request (its
/// topic suffix, payload limit, priority) is HeraldAPNs' (`APNsTopic`,
/// `APNsPayloadLimit`, `APNsPriority`), and FCM's `apns` block reads them
/// through HeraldAPNs too.
public enum PushType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Visible to the user: alert, sound or badge.
    case alert
    /// Wakes the app silently (`content-available`, no alert, sound or badge).
    case background
    /// An incoming VoIP call (PushKit).
    case voip
    /// Starts, updates or ends a Live Activity.
    case liveactivity
    /// Updates a watchOS complication.
    case complication
    /// Signals a File Provider extension.
    case fileprovider
    /// Tells a managed device to contact its MDM server.
    case mdm
    /// Asks a Location Push Service Extension for the device's location.
    case location
    /// Push to Talk (PushToTalk framework).
    case pushtotalk
    /// Reloads WidgetKit widgets.
    case widgets

    /// The priority used when the event names none: ``Priority/normal``
    /// for background pushes (the only one APNs accepts for them),
    /// ``Priority/high`` otherwise.
    public var defaultPriority: Priority {
        self == .background ? .normal : .high
    }

    public var description: String { rawValue }
}
