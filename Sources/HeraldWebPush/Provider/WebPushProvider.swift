import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit

/// Delivers events to browsers through their push services (RFC 8030): each
/// message encrypted for its subscription (RFC 8291 `aes128gcm`), the sender
/// identified by a VAPID token per push service origin (RFC 8292), one
/// request per target on the shared `HTTPClient` (HTTP/2 or HTTP/1.1,
/// whichever the push service speaks).
///
/// `prepare` checks what can be checked before sending — the subscription's
/// keys are a P-256 point and a 16-byte secret, the `Topic`, the payload
/// fits one 4096-byte record — and encrypts once. Answers are mapped by
/// `WebPushAnswer`.
public final class WebPushProvider: PushProvider {
    public let provider: Provider = .webpush
    public let configuration: WebPushProviderConfiguration
    let http: HTTPClient
    let now: @Sendable () -> Timestamp
    let logger: Logger

    /// - Parameter now: the wall clock (`expires_at` → `TTL`, HTTP-date `Retry-After`); injected for tests.
    public init(
        configuration: WebPushProviderConfiguration, httpClient: HTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.configuration = configuration
        http = httpClient
        self.now = now
        self.logger = logger
    }

    public func prepare(_ event: Event, for target: Target) throws(DeliveryRejection)
        -> PreparedNotification<WebPushMessage>
    {
        guard target.address.kind == .endpoint, let keys = target.webPushKeys else {
            throw DeliveryRejection(
                reason: "WrongTarget",
                message: "a Web Push target needs a subscription, found a \(target.address.field)")
        }
        let subscription: WebPushSubscription
        do {
            subscription = try WebPushSubscription(endpoint: target.address.value, p256dh: keys.p256dh, auth: keys.auth)
        } catch {
            throw DeliveryRejection(reason: "BadSubscription", message: error.description)
        }
        if let topic = event.collapseID, let problem = WebPushMessage.problem(withTopic: topic) {
            throw DeliveryRejection(reason: "BadTopic", message: problem)
        }
        let body: [UInt8]
        do {
            body = try WebPushEncryption.encrypt(WebPushPayload.plaintext(of: event), for: subscription)
        } catch {
            if case .plaintextTooLarge(let size, let limit) = error {
                throw DeliveryRejection(
                    reason: "PayloadTooLarge",
                    message:
                        "the Web Push payload is \(size) bytes, over the \(limit) bytes one 4096-byte aes128gcm record carries"
                )
            }
            throw DeliveryRejection(reason: "EncryptionFailed", message: error.description)
        }
        let message = WebPushMessage(
            subscription: subscription, body: body, expiry: event.expiry,
            urgency: WebPushMessage.urgency(event.resolvedPriority), topic: event.collapseID)
        return PreparedNotification(event: event, target: target, request: message)
    }

    public func send(_ notification: PreparedNotification<WebPushMessage>, attempt: Int) async throws(DeliveryFailure)
        -> DeliveryResult
    {
        let message = notification.request
        if let refusal = configuration.refusal(for: message.subscription) { return .refused(refusal) }
        let authorization: String
        do {
            authorization = try configuration.vapid.authorization(for: message.subscription)
        } catch {
            logger.error("VAPID token cannot be signed", ["error": .string(error.description)])
            return DeliveryResult(.failed, reason: "VAPID: \(error.description)")
        }
        let (url, headers) = message.request(
            authorization: authorization, now: now(), defaultTTL: configuration.defaultTTL)
        let request = HTTPClientRequest(
            method: "POST", url: url, headers: headers, body: message.body,
            timeout: configuration.requestTimeout, tenant: configuration.tenant)
        let traced = notification.trace?.sent(request)
        let started = ContinuousClock.now
        let response: HTTPClientResponse
        do {
            response = try await http.send(request)
        } catch {
            if let trace = notification.trace, let traced { trace.failed(traced, error: "\(error)") }
            return try DeliveryResult.unanswered(error, latency: ContinuousClock.now - started)
        }
        let latency = ContinuousClock.now - started
        if let trace = notification.trace, let traced { trace.answered(traced, response) }
        switch WebPushAnswer.classify(
            status: response.status, location: response.header("location"),
            retryAfter: response.header("retry-after"), body: response.body, now: now())
        {
        case .delivered(let location):
            if logger.isEnabled(.debug) {
                logger.debug(
                    "web push message accepted",
                    ["target": .token(message.subscription.endpoint), "attempt": .int(attempt)])
            }
            return DeliveryResult(
                .delivered, providerStatus: response.status, providerMessageID: location, latency: latency)
        case .definitive(var result):
            result.latency = latency
            return result
        case .transient(var failure):
            failure.latency = latency
            throw failure
        }
    }
}

extension WebPushProvider: CredentialProbing {
    /// A push service answers only for a subscription it issued: the key and
    /// subject are what can be proven, and were when the provider was made.
    public func probeCredentials() async -> [CredentialCheck] {
        [
            CredentialCheck(
                ok: true,
                "VAPID key signs (public key \(configuration.vapid.signer.publicKey)); "
                    + "push services are reached per subscription, so there is no endpoint to probe")
        ]
    }
}
