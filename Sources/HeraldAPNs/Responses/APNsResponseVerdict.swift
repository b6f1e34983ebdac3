import HeraldCore

/// What one APNs answer means for the notification: the mapping from
/// (HTTP status, reason) to Herald's results, in one place.
public enum APNsResponseVerdict: Sendable, Equatable {
    /// A definitive answer: report it.
    case result(DeliveryResult)
    /// A transient failure: the pipeline retries later.
    case failure(DeliveryFailure)
    /// Our provider token was refused (403 Expired/Invalid/MissingProviderToken):
    /// refresh it once and retry at once.
    case refreshProviderToken(reason: APNsReason)

    /// Classifies a response.
    /// - Parameters:
    ///   - apnsID: the `apns-id` response header.
    ///   - retryAfter: the `Retry-After` header in seconds, if any.
    public init(status: Int, body: [UInt8], apnsID: String?, retryAfter: Duration? = nil, latency: Duration? = nil) {
        if status == 200 {
            self = .result(DeliveryResult(.delivered, providerStatus: 200, providerMessageID: apnsID, latency: latency))
            return
        }
        let error = APNsErrorBody(parsing: body)
        // A reason Apple does not document is kept only when it is a token
        // (ProviderReason); anything else is the status's fallback, its words the detail.
        let said = error?.reason.rawValue
        let (name, detail) = ProviderReason.reason(said, fallback: Self.fallbackReason(status: status), detail: nil)
        let reason = name == said ? error?.reason ?? .unknown(name) : .unknown(name)
        func result(_ kind: DeliveryResult.Status, couldBeMisconfiguration: Bool = false) -> DeliveryResult {
            DeliveryResult(
                kind, reason: reason.rawValue, detail: detail, providerStatus: status, providerMessageID: apnsID,
                latency: latency, couldBeMisconfiguration: couldBeMisconfiguration)
        }
        switch reason.disposition(status: status) {
        case .invalidToken:
            self = .result(result(.invalidToken(invalidatedAt: error?.timestamp)))
        case .invalidTokenUnlessMisconfigured:
            self = .result(result(.invalidToken(invalidatedAt: error?.timestamp), couldBeMisconfiguration: true))
        case .failed:
            self = .result(result(.failed))
        case .refreshProviderToken:
            self = .refreshProviderToken(reason: reason)
        case .retry:
            // Too many notifications to one device: its later sends pause.
            let pause =
                reason == .tooManyRequests
                ? SendPause(.token, cause: "too many notifications to this device (TooManyRequests)", service: "APNs")
                : nil
            self = .failure(
                DeliveryFailure(
                    reason: reason.rawValue, detail: detail, providerStatus: status, retryAfter: retryAfter,
                    latency: latency, pause: pause))
        }
    }

    /// A reason for a response without a JSON body (a proxy's error page): `HTTP 502`.
    static func fallbackReason(status: Int) -> String { "HTTP \(status)" }
}
