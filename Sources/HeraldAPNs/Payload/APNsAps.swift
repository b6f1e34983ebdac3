import HeraldCore

/// The `aps` dictionary: every key Apple defines, typed, in one place.
///
/// Herald fills the keys its event model carries; the others
/// (`interruption-level`, `relevance-score`, `url-args`, Live Activity keys,
/// ...) are set by code that builds an `APNsPayload` itself, or reach the
/// wire through the event's raw `apns.payload`.
public struct APNsAps: Sendable, Hashable {
    public var alert: APNsAlert?
    /// The app icon's badge; 0 clears it.
    public var badge: Int?
    public var sound: APNsSound?
    public var threadID: String?
    public var category: String?
    /// `content-available: 1`: wake the app in the background.
    public var contentAvailable: Bool
    /// `mutable-content: 1`: let a notification service extension change the notification.
    public var mutableContent: Bool
    public var targetContentID: String?
    public var interruptionLevel: APNsInterruptionLevel?
    /// 0...1: which notification the system features in a summary.
    public var relevanceScore: Double?
    public var filterCriteria: String?
    /// Safari web push: values substituted into the website's URL format string.
    public var urlArgs: [String]?
    public var liveActivity: APNsLiveActivity?

    public init(
        alert: APNsAlert? = nil, badge: Int? = nil, sound: APNsSound? = nil, threadID: String? = nil,
        category: String? = nil, contentAvailable: Bool = false, mutableContent: Bool = false,
        targetContentID: String? = nil, interruptionLevel: APNsInterruptionLevel? = nil,
        relevanceScore: Double? = nil, filterCriteria: String? = nil, urlArgs: [String]? = nil,
        liveActivity: APNsLiveActivity? = nil
    ) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.threadID = threadID
        self.category = category
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.targetContentID = targetContentID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.urlArgs = urlArgs
        self.liveActivity = liveActivity
    }

    /// The dictionary; absent keys are left out (Wallet's `{"aps":{}}` is an empty one).
    public var jsonObject: JSONObject {
        var aps = JSONObject()
        if let alert, !alert.isEmpty { aps["alert"] = .object(alert.jsonObject) }
        if let badge { aps["badge"] = .number(JSONNumber(badge)) }
        if let sound { aps["sound"] = sound.jsonValue }
        if let threadID { aps["thread-id"] = .string(threadID) }
        if let category { aps["category"] = .string(category) }
        if contentAvailable { aps["content-available"] = 1 }
        if mutableContent { aps["mutable-content"] = 1 }
        if let targetContentID { aps["target-content-id"] = .string(targetContentID) }
        if let interruptionLevel { aps["interruption-level"] = .string(interruptionLevel.rawValue) }
        if let relevanceScore, let number = JSONNumber(relevanceScore) { aps["relevance-score"] = .number(number) }
        if let filterCriteria { aps["filter-criteria"] = .string(filterCriteria) }
        if let urlArgs { aps["url-args"] = .array(urlArgs.map(JSONValue.string)) }
        liveActivity?.write(into: &aps)
        return aps
    }
}

/// `aps.interruption-level`: how strongly a notification may break through
/// Focus (iOS 15+). Raw values are the wire strings.
///
/// - Important: `critical` needs the critical-alert entitlement;
///   `time-sensitive` needs the Time Sensitive Notifications capability.
public enum APNsInterruptionLevel: String, Sendable, Hashable, CaseIterable {
    case passive
    case active
    case timeSensitive = "time-sensitive"
    case critical
}
