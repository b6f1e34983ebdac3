import HeraldCore

/// Counts sends in fixed windows for the simulated FCM quota, one window per
/// project: FCM's send quota is a project's, so one project over it does not
/// refuse another's sends.
struct QuotaWindows: Sendable {
    private var windows: [String: (start: Timestamp, count: Int)] = [:]

    /// Counts one send of `project` at `now`; returns the seconds until that
    /// project's window ends when its quota is already used up (the send is
    /// then refused and not counted).
    mutating func admit(project: String, at now: Timestamp, quota: FCMSimulatorSettings.Quota) -> Int? {
        if let window = windows[project], now < window.start + quota.window {
            guard window.count < quota.messages else {
                let left = (window.start + quota.window) - now
                return max(1, Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0))
            }
            windows[project] = (window.start, window.count + 1)
        } else {
            windows[project] = (now, 1)
        }
        return nil
    }
}
