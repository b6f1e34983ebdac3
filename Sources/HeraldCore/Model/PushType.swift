/// What kind of push an event is: sets APNs' `apns-push-type` header, the
/// suffix of `apns-topic`, and which priorities are legal.
///
/// - Important: Apple requires `apns-push-type` on watchOS and for newer
///   features; Herald always sends it. The topic is the app's bundle ID plus
///   ``topicSuffix``; a wrong suffix is answered with 400
///   `DeviceTokenNotForTopic` or `TopicDisallowed`.
public enum PushType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Visible to the user: alert, sound or badge. Topic: the bundle ID.
    /// Priority 10 (immediate) or 5.
    case alert
    /// Wakes the app silently (`content-available: 1`, no alert, sound or
    /// badge). Topic: the bundle ID.
    /// - Important: priority must be 5; APNs refuses 10. Apple throttles
    ///   background pushes (a few per hour per device).
    case background
    /// An incoming VoIP call for PushKit. Topic: bundle ID + `.voip`.
    /// Payloads may be 5120 bytes (others 4096). Use priority 10.
    case voip
    /// Starts, updates or ends a Live Activity. Topic: bundle ID +
    /// `.push-type.liveactivity`. Token authentication only.
    /// Priority 10 is budgeted by the system; 5 is not.
    case liveactivity
    /// Updates a watchOS complication. Topic: bundle ID + `.complication`.
    case complication
    /// Signals a File Provider extension. Topic: bundle ID + `.pushkit.fileprovider`.
    case fileprovider
    /// Tells a managed device to contact its MDM server. Topic: the UID in
    /// the subject of the MDM push certificate (no suffix; certificate auth).
    case mdm
    /// Asks a Location Push Service Extension for the device's location.
    /// Topic: bundle ID + `.location-query`. Priority 10 when the answer is
    /// needed now, else 5.
    case location
    /// Push to Talk (PushToTalk framework). Topic: bundle ID + `.voip-ptt`.
    /// - Important: Apple asks for priority 10 and `apns-expiration: 0`.
    case pushtotalk
    /// Reloads WidgetKit widgets. Topic: bundle ID + `.push-type.widgets`.
    case widgets

    /// What is appended to the bundle ID to form `apns-topic` (empty for
    /// alert, background and mdm).
    public var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: ""
        case .voip: ".voip"
        case .liveactivity: ".push-type.liveactivity"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .location: ".location-query"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        }
    }

    /// The priority used when the event names none: ``Priority/normal``
    /// for background pushes (the only legal one), ``Priority/high`` otherwise.
    public var defaultPriority: Priority {
        self == .background ? .normal : .high
    }

    public var description: String { rawValue }
}
