import HeraldAPNs
import HeraldCore

extension FCMMessageBuilder {
    /// The `apns` block FCM forwards to APNs for iOS apps: headers and
    /// payload built the way Herald's APNs provider builds them, then the
    /// event's raw `apns` headers and payload laid over them.
    ///
    /// - Important: A message that shows nothing is a background push to
    ///   iOS: APNs requires `apns-priority: 5`, `apns-push-type: background`
    ///   and `content-available: 1`, or it drops the message.
    func apns(_ event: Event, expiry: FCMExpiry?) -> JSONObject {
        let pushType = apnsPushType(event)
        var headers = JSONObject()
        headers["apns-push-type"] = .string(pushType.rawValue)
        let priority = pushType == .background ? Priority.normal : event.resolvedPriority
        headers["apns-priority"] = .string(String(priority.apnsValue))
        if let expiry { headers["apns-expiration"] = .string(String(expiry.apnsExpiration)) }
        if let collapseID = event.collapseID, collapseID.utf8.count <= APNsLimits.collapseIDBytes {
            headers["apns-collapse-id"] = .string(collapseID)
        }
        if let overrides = event.apns?.headers {
            for name in overrides.keys.sorted() { headers[name] = overrides[name].map(JSONValue.string) }
        }

        var payload: JSONValue = ["aps": .object(aps(event, pushType: pushType))]
        if let raw = event.apns?.payload { payload.merge(.object(raw)) }
        var block: JSONObject = ["headers": .object(headers), "payload": payload]
        if let image = event.notification?.image { block["fcm_options"] = ["image": .string(image)] }
        return block
    }

    /// The event's push type, except that a message with nothing to show
    /// goes as `background` (an `alert` with no alert is refused by iOS).
    func apnsPushType(_ event: Event) -> PushType {
        let visible = event.notification?.isVisible ?? false
        switch event.resolvedPushType {
        case .alert where !visible: return .background
        case let type: return type
        }
    }

    private func aps(_ event: Event, pushType: PushType) -> JSONObject {
        var aps = JSONObject()
        let notification = event.notification
        var alert = JSONObject()
        alert.set("title", notification?.title)
        alert.set("subtitle", notification?.subtitle)
        alert.set("body", notification?.body)
        alert.set("title-loc-key", notification?.titleLocKey)
        alert.set("title-loc-args", notification?.titleLocArgs)
        alert.set("loc-key", notification?.locKey)
        alert.set("loc-args", notification?.locArgs)
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if let badge = notification?.badge { aps["badge"] = .number(JSONNumber(badge)) }
        if let sound = notification?.sound { aps["sound"] = apnsSound(sound) }
        aps.set("thread-id", notification?.threadID)
        aps.set("category", notification?.category)
        if event.contentAvailable || pushType == .background { aps["content-available"] = 1 }
        if event.resolvedMutableContent { aps["mutable-content"] = 1 }
        return aps
    }

    private func apnsSound(_ sound: Event.Sound) -> JSONValue {
        guard sound.needsDictionary else { return .string(sound.name) }
        var object: JSONObject = ["name": .string(sound.name)]
        if sound.critical { object["critical"] = 1 }
        if let volume = sound.volume, let number = JSONNumber(volume) { object["volume"] = .number(number) }
        return .object(object)
    }
}
