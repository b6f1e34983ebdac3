import HeraldCore

/// An event's expiry in the two forms FCM carries: a relative `ttl`
/// duration for Android and Web Push, an absolute `apns-expiration` for iOS.
struct FCMExpiry: Sendable, Equatable {
    /// Seconds the message may wait for the device (0: now or never).
    let ttlSeconds: Int64
    /// `apns-expiration`: UNIX seconds, or 0 for "now or never".
    let apnsExpiration: Int64

    init?(_ expiry: Event.Expiry?, now: Timestamp) {
        switch expiry {
        case nil:
            return nil
        case .ttl(let seconds)?:
            ttlSeconds = Int64(seconds)
            apnsExpiration = seconds == 0 ? 0 : now.seconds &+ Int64(seconds)
        case .at(let timestamp)?:
            ttlSeconds = max(0, timestamp.seconds - now.seconds)
            apnsExpiration = ttlSeconds == 0 ? 0 : timestamp.seconds
        }
    }

    /// `android.ttl`: protobuf Duration JSON, seconds with an `s` suffix.
    var durationString: String { "\(ttlSeconds)s" }
}
