import HeraldCore

/// What a push service's answer means for the message (RFC 8030 §5, §8.4):
/// the one table from status to verdict.
///
/// | status | verdict |
/// | --- | --- |
/// | 2xx (201 Created) | delivered; `Location` is the message's id (``ProviderMessageID``) |
/// | 404, 410 | `invalid_token`: the subscription is gone |
/// | 413 | failed: payload too large |
/// | 429, 5xx | retried, after `Retry-After` when given |
/// | other (400, 401, 403, …) | failed, with the push service's words |
enum WebPushAnswer {
    case delivered(location: String?)
    case definitive(DeliveryResult)
    case transient(DeliveryFailure)

    static func classify(status: Int, location: String?, retryAfter: String?, body: [UInt8], now: Timestamp)
        -> WebPushAnswer
    {
        if (200..<300).contains(status) { return .delivered(location: location) }
        let (reason, detail) = explanation(status: status, body: body)
        switch status {
        case 404, 410:
            return .definitive(
                DeliveryResult(
                    .invalidToken(invalidatedAt: nil), reason: reason, detail: detail, providerStatus: status))
        case 429, 500...599:
            let wait = retryAfter.flatMap { RetryAfter.parse($0, now: now) }
            return .transient(DeliveryFailure(reason: reason, detail: detail, providerStatus: status, retryAfter: wait))
        default:
            return .definitive(DeliveryResult(.failed, reason: reason, detail: detail, providerStatus: status))
        }
    }

    /// The push service's reason and words. Push services word errors their
    /// own way: a JSON `reason` (Apple), `error` and `message` (Mozilla), or
    /// plain text; without a reason that is a short token (``ProviderReason``),
    /// the status's name, the service's reason moving to the detail.
    static func explanation(status: Int, body: [UInt8]) -> (reason: String, detail: String?) {
        let json = try? JSONValue.parse(body)
        let said = json?["reason"]?.stringValue ?? json?["error"]?.stringValue
        let words =
            json?["description"]?.stringValue ?? json?["message"]?.stringValue
            ?? (json == nil ? String(decoding: body.prefix(DeliveryDetail.maxBytes * 4), as: UTF8.self) : nil)
        return ProviderReason.reason(said, fallback: statusName(status), detail: words)
    }

    /// RFC 9110's names of the statuses push services answer.
    static func statusName(_ status: Int) -> String {
        switch status {
        case 400: "BadRequest"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "NotFound"
        case 410: "Gone"
        case 413: "PayloadTooLarge"
        case 415: "UnsupportedMediaType"
        case 429: "TooManyRequests"
        case 500: "InternalServerError"
        case 502: "BadGateway"
        case 503: "ServiceUnavailable"
        case 504: "GatewayTimeout"
        default: "HTTP \(status)"
        }
    }
}
