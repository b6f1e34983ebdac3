import HeraldCore

/// One entry under `apps:`: the credentials of one app, for APNs, FCM, Web Push or several.
public struct AppSettings: Sendable, Equatable, Decodable {
    public var apns: APNsSettings?
    public var fcm: FCMSettings?
    public var webpush: WebPushSettings?
    /// How many times a request whose answer was lost (a timeout, or the
    /// connection lost after it was written) is sent again at once, as it was
    /// (the same `apns-id`), before the retry policy takes over. 0 to 5.
    public var timeoutRetries: Int

    public static let defaultTimeoutRetries = 1

    enum CodingKeys: String, CodingKey {
        case apns, fcm, webpush
        case timeoutRetries = "timeout_retries"
    }

    public init(apns: APNsSettings? = nil, fcm: FCMSettings? = nil, webpush: WebPushSettings? = nil,
                timeoutRetries: Int = AppSettings.defaultTimeoutRetries) {
        self.apns = apns
        self.fcm = fcm
        self.webpush = webpush
        self.timeoutRetries = timeoutRetries
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apns = try c.decodeIfPresent(APNsSettings.self, forKey: .apns)
        fcm = try c.decodeIfPresent(FCMSettings.self, forKey: .fcm)
        webpush = try c.decodeIfPresent(WebPushSettings.self, forKey: .webpush)
        timeoutRetries = try c.decodeIfPresent(Int.self, forKey: .timeoutRetries) ?? Self.defaultTimeoutRetries
    }

    /// The providers this app has a section for, in `Provider` order.
    public var configuredProviders: [Provider] {
        Provider.allCases.filter { provider in
            switch provider {
            case .apns: apns != nil
            case .fcm: fcm != nil
            case .webpush: webpush != nil
            }
        }
    }

    /// The providers this app can deliver through, e.g. `["apns", "fcm"]`.
    public var providers: [String] { configuredProviders.map(\.rawValue) }
}
