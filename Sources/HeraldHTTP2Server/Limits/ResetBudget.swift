/// One connection's allowance of rapid resets (`rapidResetLimit`): a token
/// bucket holding at most `burst` tokens, refilled at `perSecond` by the
/// time that has passed. Each RST_STREAM the client sends for a stream the
/// server had not answered yet spends one; a client with none left is
/// resetting streams faster than any real client does (CVE-2023-44487).
/// A value owned by its connection on the loop thread.
struct ResetBudget {
    private let burst: Double
    private let perNanosecond: Double
    private var tokens: Double
    private var refilledAt: UInt64

    init(_ limit: HTTP2ServerConfiguration.StreamResetLimit, now: UInt64) {
        burst = Double(max(1, limit.burst))
        perNanosecond = Double(max(0, limit.perSecond)) / 1e9
        tokens = burst
        refilledAt = now
    }

    /// Takes one token; false when none is left.
    mutating func spend(now: UInt64) -> Bool {
        if now > refilledAt {
            tokens = min(burst, tokens + Double(now - refilledAt) * perNanosecond)
            refilledAt = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
