/// The jitter rule every Herald back-off uses: "equal jitter", half of the
/// delay fixed and half random, so the delay lies in [base/2, base]. Clients
/// that failed together (a broker restart, a provider outage) come back
/// spread over half the delay instead of in the same instant, and none waits
/// longer than the base.
public enum EqualJitter {
    /// `base` jittered by `unit`, a number in [0, 1] (clamped): `unit` 0 gives
    /// `base / 2`, 1 gives `base`.
    public static func delay(_ base: Duration, unit: Double) -> Duration {
        let seconds = Double(base.components.seconds) + Double(base.components.attoseconds) / 1e18
        let jittered = seconds / 2 + seconds / 2 * min(max(unit, 0), 1)
        return .nanoseconds(Int64(jittered * 1e9))
    }
}
