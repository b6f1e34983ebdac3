import HeraldCore

/// The plaintext of an event's Web Push message, before encryption.
///
/// An event's `webpush.payload` is sent as given: a string as its UTF-8
/// bytes, an object as its JSON. Otherwise Herald sends
/// `{"notification": {…}, "data": {…}}`: the event's `notification` with
/// the field names events use (`title`, `body`, `image`, `thread_id`, …) and
/// its `data`, each left out when the event has none; a service worker reads
/// it with `event.data.json()` (docs/webpush.md).
enum WebPushPayload {
    static func plaintext(of event: Event) -> [UInt8] {
        switch event.webPushPayload {
        case .string(let text)?: return Array(text.utf8)
        case let payload?: return payload.serialized
        case nil: break
        }
        var members: [(String, JSONValue)] = []
        if let notification = event.notification { members.append(("notification", notification.eventJSON)) }
        if let data = event.data { members.append(("data", .object(data))) }
        return JSONValue.object(JSONObject(members)).serialized
    }
}
