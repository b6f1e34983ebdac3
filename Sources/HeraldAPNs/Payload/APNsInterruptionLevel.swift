/// `aps.interruption-level`: how strongly a notification may break through
/// Focus (iOS 15+). Raw values are the wire strings.
///
/// - Important: `critical` needs the critical-alert entitlement;
///   `time-sensitive` needs the Time Sensitive Notifications capability.
public enum APNsInterruptionLevel: String, Sendable, Hashable, CaseIterable {
    case passive
    case active
    case timeSensitive = "time-sensitive"
    case critical
}
