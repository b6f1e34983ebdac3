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
