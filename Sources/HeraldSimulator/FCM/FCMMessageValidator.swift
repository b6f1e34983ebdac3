import HeraldCore

/// Checks a `messages:send` body the way FCM does before accepting it:
/// known field names, exactly one target, string-only maps, reserved data
/// keys, enum values (``FCMEnumField``), duration syntax, topic syntax. Errors carry FCM's
/// wording and a BadRequest field violation where FCM gives one.
struct FCMMessageValidator {
    /// What a valid body asks for.
    struct Accepted {
        var message: JSONObject
        var targetField: String
        var targetValue: String
        var validateOnly: Bool
    }

    /// The members of `Message`'s `target` union, of which a message sets
    /// exactly one (FCM v1 REST reference, projects.messages, "Message").
    static let targetFields = ["token", "topic", "condition", "fid"]

    /// Each object FCM knows, by path, with the field names it accepts.
    static let knownFields: [(path: FieldPath, fields: Set<String>)] = [
        ("message", Set(["name", "data", "notification", "android", "webpush", "apns", "fcm_options"] + targetFields)),
        ("message.notification", ["title", "body", "image"]),
        (
            "message.android",
            [
                "collapse_key", "priority", "ttl", "restricted_package_name", "data", "notification", "fcm_options",
                "direct_boot_ok", "bandwidth_constrained_ok", "restricted_satellite_ok",
            ]
        ),
        (
            "message.android.notification",
            [
                "title", "body", "icon", "color", "sound", "tag", "click_action", "body_loc_key", "body_loc_args",
                "title_loc_key", "title_loc_args", "channel_id", "ticker", "sticky", "event_time", "local_only",
                "notification_priority", "default_sound", "default_vibrate_timings", "default_light_settings",
                "vibrate_timings", "visibility", "notification_count", "light_settings", "image",
                "bypass_proxy_notification", "proxy",
            ]
        ),
        ("message.android.fcm_options", ["analytics_label"]),
        ("message.apns", ["headers", "payload", "fcm_options", "live_activity_token"]),
        ("message.apns.fcm_options", ["analytics_label", "image"]),
        ("message.webpush", ["headers", "data", "notification", "fcm_options"]),
        ("message.webpush.fcm_options", ["link", "analytics_label"]),
        ("message.fcm_options", ["analytics_label"]),
    ]

    /// Maps whose values FCM requires to be strings.
    static let stringMaps: [FieldPath] = [
        "message.data", "message.android.data", "message.apns.headers", "message.webpush.headers",
        "message.webpush.data",
    ]
    static let reservedKeyMaps: [FieldPath] = ["message.data", "message.android.data"]
    static let stringFields: [FieldPath] = [
        "message.notification.title", "message.notification.body", "message.notification.image",
        "message.android.collapse_key",
    ]
    static let androidTTL: FieldPath = "message.android.ttl"
    static let apnsPayload: FieldPath = "message.apns.payload"

    /// A dotted field path from `message`, split once (lookups run for every
    /// request the simulator answers; splitting per lookup would cost a
    /// quarter of its CPU under benchmark load).
    struct FieldPath: ExpressibleByStringLiteral, CustomStringConvertible, Sendable {
        let description: String
        /// The components after `message`.
        let components: [String]

        init(stringLiteral path: String) {
            description = path
            components = path.split(separator: ".").dropFirst().map(String.init)
        }

        /// The value at this path in `message`, if every step is there.
        func value(in message: JSONObject) -> JSONValue? {
            var value = JSONValue.object(message)
            for component in components {
                guard let next = value.objectValue?[component] else { return nil }
                value = next
            }
            return value
        }
    }

    static func validate(_ body: [UInt8]) -> Result<Accepted, GoogleAPIError> {
        guard let root = (try? JSONValue.parse(body))?.objectValue else {
            return .failure(.invalidArgument("Invalid JSON payload received. Expected a JSON object."))
        }
        if let unknown = root.keys.first(where: { $0 != "message" && $0 != "validate_only" }) {
            return .failure(unknownName(unknown, at: nil))
        }
        guard let message = root["message"]?.objectValue else {
            return .failure(.invalidArgument("Invalid value at 'message': expected an object", field: "message"))
        }
        if let error = checkShape(message) { return .failure(error) }
        let targets = targetFields.filter { message[$0] != nil }
        guard let field = targets.first else {
            return .failure(.invalidArgument("Recipient of the message is not set.", field: "message"))
        }
        guard targets.count == 1 else {
            return .failure(
                .invalidArgument(
                    "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set '\(targets[1])'",
                    field: "message"))
        }
        guard let value = message[field]?.stringValue, !value.isEmpty else {
            return .failure(
                .invalidArgument("Invalid value at 'message.\(field)' (TYPE_STRING)", field: "message.\(field)"))
        }
        if field == "topic", let error = checkTopic(value) { return .failure(error) }
        if let error = checkValues(message) { return .failure(error) }
        return .success(
            Accepted(
                message: message, targetField: field, targetValue: value,
                validateOnly: root["validate_only"]?.boolValue ?? false))
    }

    /// Objects where objects belong, and only field names FCM knows.
    private static func checkShape(_ message: JSONObject) -> GoogleAPIError? {
        for (path, fields) in knownFields {
            guard let value = path.value(in: message) else { continue }
            guard let object = value.objectValue else {
                return .invalidArgument(
                    "Invalid value at '\(path)': expected an object, found \(value.kindDescription)",
                    field: path.description)
            }
            if let unknown = object.keys.first(where: { !fields.contains($0) }) {
                return unknownName(unknown, at: path.description)
            }
        }
        for path in stringMaps {
            guard let value = path.value(in: message) else { continue }
            guard let object = value.objectValue else {
                return .invalidArgument(
                    "Invalid value at '\(path)': expected a map of strings", field: path.description)
            }
            for (index, member) in object.enumerated() where member.value.stringValue == nil {
                let field = "\(path)[\(index)].value"
                return .invalidArgument(
                    "Invalid value at '\(field)' (TYPE_STRING), \(member.value.jsonString)", field: field)
            }
        }
        return nil
    }

    /// Reserved data keys and the typed scalar fields.
    private static func checkValues(_ message: JSONObject) -> GoogleAPIError? {
        for path in reservedKeyMaps {
            if let key = path.value(in: message)?.objectValue?.keys.first(where: isReservedDataKey) {
                return .invalidArgument("Invalid data payload key: \(key)", field: path.description)
            }
        }
        for field in FCMEnumField.all {
            if let value = field.path.value(in: message), field.name(of: value) == nil { return field.invalid(value) }
        }
        if let ttl = androidTTL.value(in: message), !(ttl.stringValue.map(isDuration) ?? false) {
            return .invalidArgument(
                "Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), \(ttl.jsonString)",
                field: "message.android.ttl")
        }
        for path in stringFields {
            if let value = path.value(in: message), value.stringValue == nil {
                return .invalidArgument(
                    "Invalid value at '\(path)' (TYPE_STRING), \(value.jsonString)", field: path.description)
            }
        }
        if let payload = apnsPayload.value(in: message), payload.objectValue == nil {
            return .invalidArgument(
                "Invalid value at 'message.apns.payload' (type.googleapis.com/google.protobuf.Struct)",
                field: "message.apns.payload")
        }
        return nil
    }

    private static func checkTopic(_ topic: String) -> GoogleAPIError? {
        if topic.hasPrefix("/topics/") {
            return .invalidArgument(
                "Invalid topic name: give \"\(topic.dropFirst(8))\" without the \"/topics/\" prefix",
                field: "message.topic")
        }
        let allowed = topic.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-_.~%".utf8.contains(byte)
        }
        return allowed ? nil : .invalidArgument("Invalid topic name: \(topic)", field: "message.topic")
    }

    /// `^\d+(\.\d{1,9})?s$`: protobuf Duration JSON.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasSuffix("s") else { return false }
        let number = text.dropLast().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = {
            !$0.isEmpty && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard let whole = number.first, digits(whole) else { return false }
        return number.count == 1 || (digits(number[1]) && number[1].count <= 9)
    }

    /// FCM reserves `from`, `message_type` and keys starting with `google` or `gcm`.
    static func isReservedDataKey(_ key: String) -> Bool {
        key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
    }

    private static func unknownName(_ name: String, at path: String?) -> GoogleAPIError {
        let location = path.map { " at '\($0)'" } ?? ""
        return .invalidArgument(
            "Invalid JSON payload received. Unknown name \"\(name)\"\(location): Cannot find field.", field: path ?? "")
    }
}
