import HeraldCore

/// `apns-priority`: when APNs delivers. Raw values are the header values.
///
/// - Important: background pushes (`content-available` only) must use
///   `consideringDevicePower` (5); APNs refuses 10 for them.
public enum APNsPriority: Int, Sendable, Hashable, CaseIterable {
    /// 10: deliver now; the notification must alert, sound or badge.
    case immediately = 10
    /// 5: deliver considering the device's power; may be grouped and delayed.
    case consideringDevicePower = 5
    /// 1: deliver when it costs the device nothing; never wakes it.
    case prioritizingDevicePower = 1

    /// Herald's neutral priority on Apple's scale: high 10, normal 5, low 1.
    public init(_ priority: Priority) {
        switch priority {
        case .high: self = .immediately
        case .normal: self = .consideringDevicePower
        case .low: self = .prioritizingDevicePower
        }
    }

    /// The priority to send for `priority` and `pushType`: Herald's neutral
    /// priority mapped to Apple's scale, with `high` lowered to 5 for a
    /// background push (the only legal value; 1 stays 1).
    public init(_ priority: Priority, pushType: PushType) {
        self = priority == .high && pushType == .background ? .consideringDevicePower : APNsPriority(priority)
    }
}

extension Priority {
    /// The `apns-priority` value for Herald's priority: 10, 5 or 1.
    public var apnsValue: Int { APNsPriority(self).rawValue }

    /// The priority for an APNs number (10, 5 or 1).
    public init?(apnsValue: Int) {
        switch APNsPriority(rawValue: apnsValue) {
        case .immediately?: self = .high
        case .consideringDevicePower?: self = .normal
        case .prioritizingDevicePower?: self = .low
        case nil: return nil
        }
    }
}
