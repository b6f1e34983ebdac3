import HeraldCore

extension FCMMessageBuilder {
    /// `android`: priority, ttl, collapse_key, and the Android notification
    /// fields the event has words for (sound, tag, click_action, localized
    /// text, notification_count). `channel_id`, `icon`, `color` and the rest
    /// come from the event's raw `fcm.android`.
    func android(_ event: Event, expiry: FCMExpiry?) -> JSONObject {
        var android = JSONObject()
        android["priority"] = .string(event.resolvedPriority.fcmAndroidValue)
        if let expiry { android["ttl"] = .string(expiry.durationString) }
        android.set("collapse_key", event.collapseID)
        if let notification = androidNotification(event.notification) {
            android["notification"] = .object(notification)
        }
        return android
    }

    /// `android.notification`, only for a message that shows something: an
    /// `android.notification` block turns a data message into a notification
    /// message, so a data-only event must not get one for a sound or a tag alone.
    private func androidNotification(_ notification: Event.Notification?) -> JSONObject? {
        guard let notification else { return nil }
        let showsText =
            notification.title != nil || notification.body != nil || notification.image != nil
            || notification.titleLocKey != nil || notification.locKey != nil
        guard showsText else { return nil }
        var object = JSONObject()
        object.set("sound", notification.sound?.name)
        object.set("tag", notification.threadID)
        object.set("click_action", notification.category)
        object.set("title_loc_key", notification.titleLocKey)
        object.set("title_loc_args", notification.titleLocArgs)
        object.set("body_loc_key", notification.locKey)
        object.set("body_loc_args", notification.locArgs)
        if let badge = notification.badge { object["notification_count"] = .number(JSONNumber(badge)) }
        return object.isEmpty ? nil : object
    }
}

extension Priority {
    /// The FCM `android.priority` value: FCM has two levels, so `high` is
    /// HIGH and `normal` and `low` are NORMAL.
    public var fcmAndroidValue: String {
        self == .high ? "HIGH" : "NORMAL"
    }
}
