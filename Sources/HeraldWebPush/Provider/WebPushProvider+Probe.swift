import HeraldCore
import HeraldProviderKit

extension WebPushProvider: CredentialProbing {
    /// A push service answers only for a subscription it issued: the key and
    /// subject are what can be proven, and were when the provider was made.
    public func probeCredentials() async -> [CredentialCheck] {
        [CredentialCheck(ok: true, "VAPID key signs (public key \(configuration.vapid.signer.publicKey)); "
            + "push services are reached per subscription, so there is no endpoint to probe")]
    }
}
