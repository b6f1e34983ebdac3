import HeraldCore

/// An enum-typed field of FCM's `message` and the JSON values Google's parser
/// takes for it, so the simulator refuses a misspelt enum as FCM does and
/// accepts every spelling a real client sends.
///
/// FCM reads the body as proto3 JSON, whose parsers "accept both enum names
/// and integer values"; Google's reference also documents `"normal"` and
/// `"high"` for `android.priority`, which firebase-admin sends (docs/fcm.md,
/// "Enum values"). ``all`` is the one table of those fields and spellings.
struct FCMEnumField: Sendable {
    /// Where the field is, from `message`.
    let path: FCMMessageValidator.FieldPath
    /// The proto type named in FCM's error message.
    let typeName: String
    /// The value names in declaration order: a name's index is its number.
    let names: [String]
    /// Other spellings Google documents for the field, by the name they mean.
    let aliases: [String: String]

    init(_ path: FCMMessageValidator.FieldPath, type typeName: String, names: [String], aliases: [String: String] = [:])
    {
        self.path = path
        self.typeName = typeName
        self.names = names
        self.aliases = aliases
    }

    /// Every enum field the simulator checks, with what Google accepts for it
    /// (FCM v1 REST reference, projects.messages: AndroidMessagePriority,
    /// NotificationPriority, Visibility, Proxy).
    static let all: [FCMEnumField] = [
        FCMEnumField(
            "message.android.priority", type: "google.firebase.fcm.v1.AndroidMessagePriority",
            names: ["NORMAL", "HIGH"],
            aliases: ["normal": "NORMAL", "high": "HIGH"]),
        FCMEnumField(
            "message.android.notification.notification_priority",
            type: "google.firebase.fcm.v1.AndroidNotification.NotificationPriority",
            names: [
                "PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH",
                "PRIORITY_MAX",
            ]),
        FCMEnumField(
            "message.android.notification.visibility", type: "google.firebase.fcm.v1.AndroidNotification.Visibility",
            names: ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"]),
        FCMEnumField(
            "message.android.notification.proxy", type: "google.firebase.fcm.v1.AndroidNotification.Proxy",
            names: ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"]),
    ]

    /// The value name `value` stands for: a name, a documented alias, or a
    /// JSON integer numbering a value; nil when Google would refuse it.
    func name(of value: JSONValue) -> String? {
        switch value {
        case .string(let text):
            if names.contains(text) { return text }
            return aliases[text]
        case .number(let number):
            guard let index = number.int, names.indices.contains(index) else { return nil }
            return names[index]
        default:
            return nil
        }
    }

    /// FCM's answer to a value it does not take, e.g.
    /// `Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "URGENT"`.
    func invalid(_ value: JSONValue) -> GoogleAPIError {
        .invalidArgument(
            "Invalid value at '\(path)' (type.googleapis.com/\(typeName)), \(value.jsonString)", field: path.description
        )
    }
}
