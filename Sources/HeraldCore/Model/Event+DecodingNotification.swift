// Decoding `notification` and its `sound`.

extension Event {
    static let notificationFieldNames = [
        "title", "subtitle", "body", "badge", "sound", "image", "category", "thread_id",
        "title_loc_key", "title_loc_args", "loc_key", "loc_args",
    ]
    static let soundFieldNames = ["name", "critical", "volume"]

    static func decodeNotification(_ fields: FieldReader) throws(EventError) -> Notification {
        try fields.rejectUnknownKeys(allowed: notificationFieldNames)
        return Notification(
            title: try fields.string("title"),
            subtitle: try fields.string("subtitle"),
            body: try fields.string("body"),
            badge: try fields.nonNegativeInt("badge"),
            sound: try decodeSound(fields),
            image: try fields.string("image", nonEmpty: true),
            category: try fields.string("category", nonEmpty: true),
            threadID: try fields.string("thread_id", nonEmpty: true),
            titleLocKey: try fields.string("title_loc_key", nonEmpty: true),
            titleLocArgs: try fields.stringArray("title_loc_args"),
            locKey: try fields.string("loc_key", nonEmpty: true),
            locArgs: try fields.stringArray("loc_args")
        )
    }

    /// `"default"`, `"ping.caf"`, or `{"critical": true, "name": "alarm.caf", "volume": 0.8}`.
    private static func decodeSound(_ fields: FieldReader) throws(EventError) -> Sound? {
        guard let value = fields.value("sound") else { return nil }
        switch value {
        case .string(let name) where !name.isEmpty:
            return Sound(name: name)
        case .object(let object):
            let soundFields = FieldReader(object: object, path: fields.path("sound"))
            try soundFields.rejectUnknownKeys(allowed: soundFieldNames)
            guard let name = try soundFields.string("name", nonEmpty: true) else {
                throw EventError(
                    field: soundFields.path("name"), message: "missing; give the sound file's name or \"default\"")
            }
            var volume: Double?
            if let volumeValue = soundFields.value("volume") {
                guard let number = volumeValue.doubleValue, number >= 0, number <= 1 else {
                    throw .mismatch(soundFields.path("volume"), expected: "a number from 0 to 1", found: volumeValue)
                }
                volume = number
            }
            return Sound(name: name, critical: try soundFields.bool("critical") ?? false, volume: volume)
        default:
            throw .mismatch(
                fields.path("sound"), expected: "a sound name or an object with \"name\", \"critical\" and \"volume\"",
                found: value)
        }
    }
}

extension Event.Notification {
    /// The notification as an event writes it (the field names decoding
    /// reads), with only the fields it has: what a Web Push message carries.
    public var eventJSON: JSONValue {
        var members: [(String, JSONValue)] = []
        func add(_ name: String, _ value: String?) { if let value { members.append((name, .string(value))) } }
        func add(_ name: String, _ values: [String]?) {
            if let values { members.append((name, .array(values.map(JSONValue.string)))) }
        }
        add("title", title)
        add("subtitle", subtitle)
        add("body", body)
        if let badge { members.append(("badge", .number(JSONNumber(badge)))) }
        if let sound {
            if sound.needsDictionary {
                var fields: [(String, JSONValue)] = [
                    ("name", .string(sound.name)), ("critical", .bool(sound.critical)),
                ]
                if let volume = sound.volume { fields.append(("volume", .number(JSONNumber(finite: volume)))) }
                members.append(("sound", .object(JSONObject(fields))))
            } else {
                members.append(("sound", .string(sound.name)))
            }
        }
        add("image", image)
        add("category", category)
        add("thread_id", threadID)
        add("title_loc_key", titleLocKey)
        add("title_loc_args", titleLocArgs)
        add("loc_key", locKey)
        add("loc_args", locArgs)
        return .object(JSONObject(members))
    }
}
