import HeraldCore

/// The `apns-topic` for a push type: the app's bundle id plus the suffix the
/// push type needs (`.voip`, `.push-type.liveactivity`, ...).
public enum APNsTopic {
    /// `bundleID` + `pushType.topicSuffix`, unless `bundleID` already ends with the suffix
    /// (a config that names the VoIP topic itself is not doubled).
    public static func topic(bundleID: String, pushType: PushType) -> String {
        let suffix = pushType.topicSuffix
        if suffix.isEmpty || bundleID.hasSuffix(suffix) { return bundleID }
        return bundleID + suffix
    }

    /// The topics an app whose bundle IDs are `bundleIDs` may be sent with:
    /// each bundle ID, and each with every push type's suffix (`.voip`,
    /// `.complication`, `.pushkit.fileprovider`, `.push-type.liveactivity`,
    /// `.location-query`, `.voip-ptt`, `.push-type.widgets`). A team's key signs
    /// for every bundle ID of the team, so Herald — not Apple — keeps an event
    /// or a registration of one app from using another app's topic.
    public static func allowed(bundleIDs: some Sequence<String>) -> Set<String> {
        var topics = Set<String>()
        for bundleID in bundleIDs {
            for pushType in PushType.allCases { topics.insert(topic(bundleID: bundleID, pushType: pushType)) }
        }
        return topics
    }
}

extension PushType {
    /// What APNs requires of this push type's requests: `apns-push-type` is
    /// its name (Apple requires it on watchOS and for newer features; Herald
    /// always sends it), and `apns-topic` is the app's bundle ID plus this
    /// suffix. A wrong suffix is answered with 400 `DeviceTokenNotForTopic` or
    /// `TopicDisallowed`.
    ///
    /// - `alert`: the bundle ID; priority 10 or 5.
    /// - `background`: the bundle ID; priority 5 only (APNs refuses 10), and
    ///   Apple throttles them (a few per hour per device).
    /// - `voip`: `.voip`; payloads up to 5120 bytes (``APNsPayloadLimit``); priority 10.
    /// - `liveactivity`: `.push-type.liveactivity`; token authentication only;
    ///   priority 10 is budgeted by the system, 5 is not.
    /// - `complication`: `.complication`.
    /// - `fileprovider`: `.pushkit.fileprovider`.
    /// - `mdm`: no suffix: the topic is the UID in the subject of the MDM push
    ///   certificate (certificate authentication).
    /// - `location`: `.location-query`; priority 10 when the answer is needed now, else 5.
    /// - `pushtotalk`: `.voip-ptt`; Apple asks for priority 10 and `apns-expiration: 0`.
    /// - `widgets`: `.push-type.widgets`.
    public var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: ""
        case .voip: ".voip"
        case .liveactivity: ".push-type.liveactivity"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .location: ".location-query"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        }
    }
}
