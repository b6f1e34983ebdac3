import HeraldCore

extension FCMMessageBuilder {
    /// `webpush.headers`: Web Push's own `TTL` (seconds) and `Urgency`
    /// (RFC 8030), from the event's expiry and priority.
    func webpush(_ event: Event, expiry: FCMExpiry?) -> JSONObject {
        var headers = JSONObject()
        if let expiry { headers["TTL"] = .string(String(expiry.ttlSeconds)) }
        headers["Urgency"] = .string(WebPushUrgency(event.resolvedPriority).rawValue)
        return ["headers": .object(headers)]
    }
}

/// RFC 8030's `Urgency` header values that Herald's priorities map to.
enum WebPushUrgency: String {
    case high, normal, low

    init(_ priority: Priority) {
        switch priority {
        case .high: self = .high
        case .normal: self = .normal
        case .low: self = .low
        }
    }
}
