import HeraldCore
import HeraldProviderKit

extension APNsProvider: CredentialProbing {
    /// The all-zero device token the probe is sent to: no device has it.
    static let probeToken = String(repeating: "0", count: 64)

    /// Reasons that mean the credentials themselves were refused.
    static let credentialReasons: Set<APNsReason> = [
        .invalidProviderToken, .expiredProviderToken, .missingProviderToken, .badCertificate,
        .badCertificateEnvironment, .forbidden, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
        .topicDisallowed, .badTopic,
    ]

    /// One request to an all-zero device token. Apple answers 400
    /// BadDeviceToken when the provider token or certificate is accepted, and
    /// 403 (InvalidProviderToken, BadCertificate, ...) when it is not; nothing
    /// reaches a device.
    public func probeCredentials() async -> [CredentialCheck] {
        let target = Target(provider: provider, address: .token(Self.probeToken))
        let event = Event(
            id: "herald-check", app: "herald-check", targets: [target],
            notification: Event.Notification(body: "herald check --online"))
        do {
            let delivered = try await deliver(event, to: target, attempt: 1)
            let reason = delivered.reason ?? ""
            if Self.credentialReasons.contains(APNsReason(rawValue: reason)) {
                return [
                    CredentialCheck(
                        ok: false, "credentials refused: \(delivered.providerStatus.map(String.init) ?? "-") \(reason)")
                ]
            }
            let answer = delivered.providerStatus.map { reason.isEmpty ? "\($0)" : "\($0) \(reason)" } ?? reason
            return [
                CredentialCheck(
                    ok: true, "credentials accepted (a probe to an all-zero device token was answered \(answer))")
            ]
        } catch {
            return [CredentialCheck(ok: false, "could not reach the endpoint: \(error)")]
        }
    }
}
