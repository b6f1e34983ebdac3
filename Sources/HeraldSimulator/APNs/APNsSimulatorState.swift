import HeraldCore

/// The APNs simulator's memory between requests: each team's current token
/// (TooManyProviderTokenUpdates) and recent sends per device (TooManyRequests).
struct APNsSimulatorState {
    struct TeamToken {
        var token: String
        var issuedAt: Timestamp
    }

    var teamTokens: [String: TeamToken] = [:]
    var recentSends: [String: [Timestamp]] = [:]

    /// Accepts `token` as the team's current one, or refuses a replacement
    /// issued less than `interval` after the previous accepted one.
    mutating func acceptToken(
        _ token: String, team: String, issuedAt: Timestamp, interval: Duration
    ) throws(APNsSimulatorRejection) {
        if let current = teamTokens[team], current.token != token {
            if issuedAt < current.issuedAt { return }  // an older token still in use elsewhere: allowed, not current
            if interval > .zero, issuedAt - current.issuedAt < interval {
                throw APNsSimulatorRejection(429, "TooManyProviderTokenUpdates")
            }
        }
        teamTokens[team] = TeamToken(token: token, issuedAt: issuedAt)
    }

    /// Counts a send to `deviceToken` at `now`; refuses one over `limit` within `window`.
    mutating func countSend(to deviceToken: String, at now: Timestamp, limit: Int?, window: Duration)
        throws(APNsSimulatorRejection)
    {
        guard let limit else { return }
        var sends = recentSends[deviceToken, default: []].filter { now - $0 < window }
        guard sends.count < limit else {
            recentSends[deviceToken] = sends
            throw APNsSimulatorRejection(429, "TooManyRequests")
        }
        sends.append(now)
        recentSends[deviceToken] = sends
    }
}
