import HeraldCore

/// Counts sends in fixed windows for the simulated FCM quota.
struct QuotaWindow: Sendable {
    private var start: Timestamp?
    private var count = 0

    /// Counts one send at `now`; returns the seconds until the window ends
    /// when the quota is already used up (the send is then refused).
    mutating func admit(at now: Timestamp, quota: FCMSimulatorSettings.Quota) -> Int? {
        if let start, now < start + quota.window {
            guard count < quota.messages else {
                let left = (start + quota.window) - now
                return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
            }
        } else {
            start = now
            count = 0
        }
        count += 1
        return nil
    }
}
