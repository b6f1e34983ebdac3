/// Every `reason` APNs documents, with the HTTP status it comes with and what
/// Herald does about it: the one table that maps Apple's answers.
///
/// A reason Apple adds later arrives as ``unknown(_:)`` and is reported
/// verbatim, classified by its HTTP status.
public enum APNsReason: Sendable, Hashable, CustomStringConvertible {
    case badCollapseId, badDeviceToken, badExpirationDate, badMessageId, badPriority, badTopic
    case deviceTokenNotForTopic, duplicateHeaders, idleTimeout, invalidPushType, missingDeviceToken
    case missingTopic, payloadEmpty, topicDisallowed
    case badCertificate, badCertificateEnvironment, expiredProviderToken, forbidden, invalidProviderToken
    case missingProviderToken, unrelatedKeyIdInToken, badEnvironmentKeyIdInToken
    case badPath, methodNotAllowed, expiredToken, unregistered, payloadTooLarge
    case tooManyProviderTokenUpdates, tooManyRequests, internalServerError, serviceUnavailable, shutdown
    case unknown(String)

    /// What Herald does with a notification APNs answered with this reason.
    public enum Disposition: Sendable, Hashable {
        /// The token is dead: `invalid_token`, upstream deletes it.
        case invalidToken
        /// `invalid_token` too, but every token gets this answer when the app's
        /// environment or topic is wrong: the invalidation guard may hold it back.
        case invalidTokenUnlessMisconfigured
        /// Refused for good: `failed`.
        case failed
        /// Our provider token was refused: refresh it once and retry.
        case refreshProviderToken
        /// Transient: `retrying` (throttled, Apple's side down).
        case retry
    }

    /// One row of the table.
    public struct Entry: Sendable {
        public let reason: APNsReason
        /// Apple's spelling, e.g. `BadDeviceToken`.
        public let name: String
        /// The HTTP status Apple documents for it.
        public let status: Int
        public let disposition: Disposition

        init(_ reason: APNsReason, _ name: String, _ status: Int, _ disposition: Disposition) {
            self.reason = reason
            self.name = name
            self.status = status
            self.disposition = disposition
        }
    }

    /// Every documented reason with its HTTP status and disposition.
    public static let table: [Entry] = [
        Entry(.badDeviceToken, "BadDeviceToken", 400, .invalidTokenUnlessMisconfigured),
        Entry(.deviceTokenNotForTopic, "DeviceTokenNotForTopic", 400, .invalidTokenUnlessMisconfigured),
        Entry(.badCollapseId, "BadCollapseId", 400, .failed),
        Entry(.badExpirationDate, "BadExpirationDate", 400, .failed),
        Entry(.badMessageId, "BadMessageId", 400, .failed),
        Entry(.badPriority, "BadPriority", 400, .failed),
        Entry(.badTopic, "BadTopic", 400, .failed),
        Entry(.duplicateHeaders, "DuplicateHeaders", 400, .failed),
        Entry(.idleTimeout, "IdleTimeout", 400, .failed),
        Entry(.invalidPushType, "InvalidPushType", 400, .failed),
        Entry(.missingDeviceToken, "MissingDeviceToken", 400, .failed),
        Entry(.missingTopic, "MissingTopic", 400, .failed),
        Entry(.payloadEmpty, "PayloadEmpty", 400, .failed),
        Entry(.topicDisallowed, "TopicDisallowed", 400, .failed),
        Entry(.expiredProviderToken, "ExpiredProviderToken", 403, .refreshProviderToken),
        Entry(.invalidProviderToken, "InvalidProviderToken", 403, .refreshProviderToken),
        Entry(.missingProviderToken, "MissingProviderToken", 403, .refreshProviderToken),
        Entry(.badCertificate, "BadCertificate", 403, .failed),
        Entry(.badCertificateEnvironment, "BadCertificateEnvironment", 403, .failed),
        Entry(.forbidden, "Forbidden", 403, .failed),
        Entry(.unrelatedKeyIdInToken, "UnrelatedKeyIdInToken", 403, .failed),
        Entry(.badEnvironmentKeyIdInToken, "BadEnvironmentKeyIdInToken", 403, .failed),
        Entry(.badPath, "BadPath", 404, .failed),
        Entry(.methodNotAllowed, "MethodNotAllowed", 405, .failed),
        Entry(.unregistered, "Unregistered", 410, .invalidToken),
        Entry(.expiredToken, "ExpiredToken", 410, .invalidToken),
        Entry(.payloadTooLarge, "PayloadTooLarge", 413, .failed),
        Entry(.tooManyRequests, "TooManyRequests", 429, .retry),
        Entry(.tooManyProviderTokenUpdates, "TooManyProviderTokenUpdates", 429, .retry),
        Entry(.internalServerError, "InternalServerError", 500, .retry),
        Entry(.serviceUnavailable, "ServiceUnavailable", 503, .retry),
        Entry(.shutdown, "Shutdown", 503, .retry),
    ]

    private static let byName: [String: APNsReason] = Dictionary(
        uniqueKeysWithValues: table.map { ($0.name, $0.reason) })

    /// The reason for Apple's string; ``unknown(_:)`` for one not in the table.
    public init(rawValue: String) {
        self = Self.byName[rawValue] ?? .unknown(rawValue)
    }

    /// This reason's row; nil for ``unknown(_:)``.
    public var entry: Entry? { Self.table.first { $0.reason == self } }

    /// Apple's spelling, e.g. `BadDeviceToken`.
    public var rawValue: String {
        if case .unknown(let name) = self { return name }
        return entry?.name ?? ""
    }

    public var description: String { rawValue }

    /// The HTTP status Apple documents for this reason; nil for an unknown one.
    public var documentedStatus: Int? { entry?.status }

    /// What to do with a notification answered `status` with this reason: the
    /// table's entry, else by status (403 token reasons aside, 4xx fail,
    /// 410 invalidates, 429 and 5xx retry).
    public func disposition(status: Int) -> Disposition {
        if let entry { return entry.disposition }
        switch status {
        case 410: return .invalidToken
        case 429, 500...599: return .retry
        default: return .failed
        }
    }
}
