/// One entry under `apps:`: the credentials of one mobile app, for APNs, FCM or both.
public struct AppSettings: Sendable, Equatable, Decodable {
    public var apns: APNsSettings?
    public var fcm: FCMSettings?
    /// How many times a request whose answer was lost (a timeout, or the
    /// connection lost after it was written) is sent again at once, as it was
    /// (the same `apns-id`), before the retry policy takes over. 0 to 5.
    public var timeoutRetries: Int

    public static let defaultTimeoutRetries = 1

    enum CodingKeys: String, CodingKey {
        case apns, fcm
        case timeoutRetries = "timeout_retries"
    }

    public init(apns: APNsSettings? = nil, fcm: FCMSettings? = nil, timeoutRetries: Int = AppSettings.defaultTimeoutRetries) {
        self.apns = apns
        self.fcm = fcm
        self.timeoutRetries = timeoutRetries
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apns = try c.decodeIfPresent(APNsSettings.self, forKey: .apns)
        fcm = try c.decodeIfPresent(FCMSettings.self, forKey: .fcm)
        timeoutRetries = try c.decodeIfPresent(Int.self, forKey: .timeoutRetries) ?? Self.defaultTimeoutRetries
    }

    /// The providers this app can deliver through, e.g. `["apns", "fcm"]`.
    public var providers: [String] { (apns == nil ? [] : ["apns"]) + (fcm == nil ? [] : ["fcm"]) }
}
