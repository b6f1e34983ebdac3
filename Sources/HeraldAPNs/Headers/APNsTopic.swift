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
}
