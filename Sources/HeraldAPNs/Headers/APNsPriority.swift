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

    /// The priority to send for `priority` and `pushType`: Herald's neutral
    /// priority mapped to Apple's scale, with `high` lowered to 5 for a
    /// background push (the only legal value; 1 stays 1).
    public init(_ priority: Priority, pushType: PushType) {
        switch priority {
        case .high: self = pushType == .background ? .consideringDevicePower : .immediately
        case .normal: self = .consideringDevicePower
        case .low: self = .prioritizingDevicePower
        }
    }
}
