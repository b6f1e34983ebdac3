import HeraldCore

/// An OAuth 2.0 access token for FCM and the window it is good for.
///
/// - Important: The value is a bearer credential: `description` masks it.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible {
    /// Sent as `authorization: Bearer <value>`.
    public let value: String
    /// When Herald received it.
    public let issuedAt: Timestamp
    /// `issuedAt + expires_in`.
    public let expiresAt: Timestamp

    public init(value: String, issuedAt: Timestamp, expiresAt: Timestamp) {
        self.value = value
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// When to stop using it: `margin` before expiry, or half-way through its
    /// life when that is shorter (a 2-minute token is not refreshed on every send).
    public func refreshAt(margin: Duration) -> Timestamp {
        let lifetime = expiresAt - issuedAt
        return expiresAt - min(margin, lifetime / 2)
    }

    public var description: String { "access token \(LogValue.mask(token: value)) expiring \(expiresAt)" }
}

extension Timestamp {
    /// `self` moved back by `duration`.
    static func - (lhs: Timestamp, rhs: Duration) -> Timestamp { lhs + (.zero - rhs) }
}
