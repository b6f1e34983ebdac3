/// One entry under `apps:`: the credentials of one mobile app, for APNs, FCM or both.
public struct AppSettings: Sendable, Equatable, Decodable {
    public var apns: APNsSettings?
    public var fcm: FCMSettings?

    enum CodingKeys: String, CodingKey { case apns, fcm }

    public init(apns: APNsSettings? = nil, fcm: FCMSettings? = nil) {
        self.apns = apns
        self.fcm = fcm
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apns = try c.decodeIfPresent(APNsSettings.self, forKey: .apns)
        fcm = try c.decodeIfPresent(FCMSettings.self, forKey: .fcm)
    }

    /// The providers this app can deliver through, e.g. `["apns", "fcm"]`.
    public var providers: [String] { (apns == nil ? [] : ["apns"]) + (fcm == nil ? [] : ["fcm"]) }
}
