import HeraldCore

/// `apns-expiration`: until when APNs stores the notification for an offline device.
///
/// - Important: the header is an absolute UNIX time in **seconds**; `0`
///   means "deliver once now or drop". A relative value such as 300 would
///   mean 1970, i.e. already expired.
public enum APNsExpiration: Sendable, Hashable {
    /// No header: APNs stores the notification for its default period.
    case apnsDefault
    /// `0`: try once, store nothing.
    case immediately
    /// Absolute UNIX seconds.
    case at(seconds: Int64)

    /// The expiration for `event`, sent at `now`.
    ///
    /// `ttl: 0` becomes `0`; another `ttl` counts from `now` (the pipeline
    /// should resolve a `ttl` into an absolute `expires_at` when it first
    /// receives the event, so retries keep the original deadline); an
    /// `expires_at` becomes its seconds. Push-to-talk with no expiry gets `0`,
    /// as Apple asks.
    public init(event: Event, now: Timestamp) {
        switch event.expiry {
        case nil:
            self = event.resolvedPushType == .pushtotalk ? .immediately : .apnsDefault
        case .ttl(let seconds)?:
            self = seconds == 0 ? .immediately : .at(seconds: (now + .seconds(seconds)).seconds)
        case .at(let timestamp)?:
            self = timestamp.seconds <= 0 ? .immediately : .at(seconds: timestamp.seconds)
        }
    }

    /// The header value, or nil for no header.
    public var headerValue: String? {
        switch self {
        case .apnsDefault: nil
        case .immediately: "0"
        case .at(let seconds): String(seconds)
        }
    }
}
