import HeraldCore

/// Maps a provider-neutral `Event` to an `APNsPayload` (see docs/apns.md for the
/// field-by-field table).
public enum APNsPayloadBuilder {
    /// The payload for `event`: notification → `aps`, `data` beside `aps`,
    /// `image` beside `aps` with `mutable-content: 1` (so the notification
    /// service extension runs and fetches it, unless the event sets
    /// `mutable_content: false`),
    /// then the event's raw `apns.payload` merged last.
    public static func payload(for event: Event) -> APNsPayload {
        var aps = APNsAps()
        if let notification = event.notification {
            aps.alert = APNsAlert(
                title: notification.title, subtitle: notification.subtitle, body: notification.body,
                titleLocKey: notification.titleLocKey, titleLocArgs: notification.titleLocArgs,
                locKey: notification.locKey, locArgs: notification.locArgs)
            aps.badge = notification.badge
            aps.sound = notification.sound.map(APNsSound.init)
            aps.threadID = notification.threadID
            aps.category = notification.category
        }
        aps.contentAvailable = event.contentAvailable || event.resolvedPushType == .background
        aps.mutableContent = event.resolvedMutableContent
        var custom = JSONObject()
        if let image = event.notification?.image { custom["image"] = .string(image) }
        for (key, value) in event.data ?? JSONObject() where key != "aps" { custom[key] = value }
        return APNsPayload(aps: aps, custom: custom, rawPatch: event.apns?.payload)
    }
}
