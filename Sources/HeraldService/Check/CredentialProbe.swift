import HeraldConfig
import HeraldCore
import Foundation
import HeraldFCM
import HeraldWebPush

/// `herald check --online`: proves each app's credentials against the real
/// endpoints before the first notification does.
///
/// - APNs: one request to an all-zero device token. Apple answers 400
///   BadDeviceToken when the provider token or certificate is accepted, and
///   403 (InvalidProviderToken, BadCertificate, ...) when it is not; nothing
///   reaches a device.
/// - FCM: the OAuth exchange at the service account's `token_uri`, then one
///   `validate_only` message to the project (`FCMProvider.probeProject()`),
///   which proves the project exists and takes messages from the account;
///   nothing is delivered.
public enum CredentialProbe {
    /// One check of one app's provider (FCM has two: OAuth, then the project).
    public struct Result: Sendable, Equatable, CustomStringConvertible {
        public let app: String
        public let provider: Provider
        public let ok: Bool
        public let detail: String

        public var description: String { "\(app)/\(provider): \(ok ? "ok" : "FAILED"): \(detail)" }
    }

    static let probeToken = String(repeating: "0", count: 64)

    /// Reasons that mean the credentials themselves were refused.
    static let credentialReasons: Set<String> = [
        "InvalidProviderToken", "ExpiredProviderToken", "MissingProviderToken", "BadCertificate",
        "BadCertificateEnvironment", "Forbidden", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken",
        "TopicDisallowed", "BadTopic",
    ]

    public static func run(config: LoadedConfig, logger: Logger) async -> [Result] {
        let providers = ProviderSet.make(config: config, logger: logger)
        let clients = Task { try await providers.run() }
        defer {
            providers.shutdown()
            clients.cancel()
        }
        var results: [Result] = []
        for (app, settings) in config.configuration.apps.sorted(by: { $0.key < $1.key }) {
            for provider in settings.configuredProviders {
                results += await probe(app: app, provider: provider, providers: providers)
            }
        }
        return results
    }

    static func probe(app: String, provider: Provider, providers: ProviderSet) async -> [Result] {
        func result(_ ok: Bool, _ detail: String) -> Result { Result(app: app, provider: provider, ok: ok, detail: detail) }
        guard let push = providers.provider(app: app, provider) else {
            let reason = providers.unavailable[ProviderSet.Key(app: app, provider: provider)] ?? "not configured"
            return [result(false, reason)]
        }
        if let webPush = push as? WebPushProvider {
            // A push service answers only for a subscription it issued: the key and subject are what can be proven.
            return [result(true, "VAPID key signs (public key \(webPush.configuration.vapid.signer.publicKey)); "
                + "push services are reached per subscription, so there is no endpoint to probe")]
        }
        if let fcm = push as? FCMProvider {
            do throws(FCMAuthError) {
                let token = try await fcm.accessToken()
                let oauth = result(true, "OAuth access token obtained (valid until \(token.expiresAt.rfc3339(fractionDigits: 0)))")
                let project = try await fcm.probeProject()
                return [oauth, result(project.ok, project.description)]
            } catch {
                return [result(false, "OAuth exchange failed: \(error)")]
            }
        }
        let event = Event(id: "herald-check", app: app, targets: [Target(provider: provider, address: .token(probeToken))],
                          notification: Event.Notification(body: "herald check --online"))
        do {
            let delivered = try await push.deliver(event, to: event.targets[0], attempt: 1)
            let reason = delivered.reason ?? ""
            if credentialReasons.contains(reason) {
                return [result(false, "credentials refused: \(delivered.providerStatus.map(String.init) ?? "-") \(reason)")]
            }
            let answer = delivered.providerStatus.map { "\($0) \(reason)" } ?? reason
            return [result(true, "credentials accepted (a probe to an all-zero device token was answered \(answer.trimmingCharacters(in: .whitespaces)))")]
        } catch {
            return [result(false, "could not reach the endpoint: \(error)")]
        }
    }
}
