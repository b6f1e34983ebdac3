/// How urgently a notification should reach the device, mapped to each
/// provider's own scale.
///
/// Events write `"high"`, `"normal"` or `"low"`; Apple's numbers `10`, `5`
/// and `1` are accepted too since people copy them from APNs examples.
/// FCM has only two levels: `low` goes as NORMAL.
public enum Priority: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Deliver now: APNs 10, FCM HIGH. Wakes the device.
    /// - Important: APNs refuses 10 for background pushes, and FCM may
    ///   deprioritise apps whose HIGH messages show nothing to the user.
    case high
    /// Deliver considering the device's power: APNs 5, FCM NORMAL. May be
    /// grouped and delayed.
    case normal
    /// Deliver when convenient, never wake the device: APNs 1, FCM NORMAL.
    case low

    /// The `apns-priority` header value.
    public var apnsValue: Int {
        switch self {
        case .high: 10
        case .normal: 5
        case .low: 1
        }
    }

    /// The FCM `android.priority` value.
    public var fcmAndroidValue: String {
        self == .high ? "HIGH" : "NORMAL"
    }

    /// The priority for an APNs number (10, 5 or 1).
    public init?(apnsValue: Int) {
        switch apnsValue {
        case 10: self = .high
        case 5: self = .normal
        case 1: self = .low
        default: return nil
        }
    }

    public var description: String { rawValue }
}
