import HeraldCore

/// A provider that can prove its credentials against the real service without
/// notifying anyone: what `herald check --online` calls.
public protocol CredentialProbing: PushProvider {
    /// Each check made, in order (FCM makes two: the OAuth exchange, then the project).
    func probeCredentials() async -> [CredentialCheck]
}

/// One check of a provider's credentials.
public struct CredentialCheck: Sendable, Equatable {
    public let ok: Bool
    public let detail: String
    public init(ok: Bool, _ detail: String) {
        self.ok = ok
        self.detail = detail
    }
}
