import HeraldAPNs
import HeraldCore

/// A 64-hex device token.
let deviceToken = String(repeating: "ab", count: 32)

let chatApp = "com.example.chat"

func event(
    notification: Event.Notification? = nil, data: JSONObject? = nil, pushType: PushType? = nil,
    priority: Priority? = nil,
    expiry: Event.Expiry? = nil, collapseID: String? = nil, contentAvailable: Bool = false, mutableContent: Bool? = nil,
    apns: APNsOverrides? = nil
) -> Event {
    var event = Event(
        id: "evt-1", app: "chat", targets: [Target(provider: .apns, address: .token(deviceToken))],
        notification: notification, data: data, pushType: pushType, priority: priority, expiry: expiry,
        collapseID: collapseID, contentAvailable: contentAvailable, mutableContent: mutableContent)
    event.apns = apns
    return event
}

func json(_ text: String) -> JSONObject {
    // Test literals are valid JSON objects; a typo fails the test that uses it.
    (try? JSONValue.parse(text))?.objectValue ?? JSONObject([("unparseable test literal", .string(text))])
}
