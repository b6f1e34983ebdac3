// Decoding an event body: size check, strict JSON parse, then every field
// validated with an error naming its path. Rules: docs/event-model.md.

extension Event {
    /// The top-level fields of every event, around the catalog's target
    /// fields (after `targets`) and its providers' sections (after
    /// `exclude_tokens`: `apns`, `fcm`, `webpush`):
    /// `ProviderCatalog.eventFieldNames`.
    static func fieldNames(targetFields: [String], sections: [String]) -> [String] {
        ["id", "app", "targets"] + targetFields + [
            "notification", "data", "push_type", "priority", "ttl", "expires_at", "collapse_id", "content_available",
            "mutable_content", "exclude_tokens",
        ] + sections + ["context", "debug", "include_device_attributes"]
    }

    /// Decodes and validates an event body.
    ///
    /// - Parameters:
    ///   - fallbackID: the id when the body has none: the AMQP `message-id`,
    ///     or one the caller generated.
    /// - Throws: ``EventError`` naming the first problem; the body's size is
    ///   checked before any parsing.
    ///   - providers: the providers targets may name, with their rules.
    public static func decode(
        _ bytes: [UInt8], fallbackID: String, providers: ProviderCatalog, limits: EventLimits = .default
    ) throws(EventError) -> Event {
        let result = bytes.withUnsafeBytes { body in
            Result { () throws(EventError) -> Event in
                try decode(body, fallbackID: fallbackID, providers: providers, limits: limits)
            }
        }
        return try result.get()
    }

    /// Decodes an event body held in memory Herald does not own (an AMQP
    /// frame), without copying it first.
    public static func decode(
        _ body: UnsafeRawBufferPointer, fallbackID: String, providers: ProviderCatalog, limits: EventLimits = .default
    ) throws(EventError) -> Event {
        guard body.count <= limits.maxBytes else {
            throw EventError(
                field: "body", message: "event is \(body.count) bytes, over the limit of \(limits.maxBytes)")
        }
        let json: JSONValue
        do throws(JSONError) {
            json = try JSONValue.parse(
                body, limits: JSONLimits(maxDepth: limits.maxJSONDepth, maxBytes: limits.maxBytes))
        } catch {
            throw EventError(field: "body", message: error.description)
        }
        return try decode(json: json, fallbackID: fallbackID, providers: providers, limits: limits)
    }

    /// Decodes an event from an already parsed JSON value.
    public static func decode(
        json: JSONValue, fallbackID: String, providers: ProviderCatalog, limits: EventLimits = .default
    ) throws(EventError) -> Event {
        guard case .object(let root) = json else {
            throw EventError(field: "event", message: "expected a JSON object, found \(json.kindDescription)")
        }
        let fields = FieldReader(object: root, path: "")
        try fields.rejectUnknownKeys(allowed: providers.eventFieldNames)

        let (targets, channels, invalidTargets) = try decodeTargets(fields, limits: limits, providers: providers)
        var event = Event(
            id: try decodeID(fields, limits: limits) ?? fallbackID,
            targets: targets,
            channels: channels,
            invalidTargets: invalidTargets
        )
        event.app = try decodeApp(fields)
        if let notification = try fields.object("notification") {
            event.notification = try decodeNotification(FieldReader(object: notification, path: "notification"))
        }
        event.data = try fields.object("data")
        event.pushType = try decodePushType(fields)
        event.priority = try decodePriority(fields)
        event.expiry = try decodeExpiry(fields)
        event.collapseID = try fields.string("collapse_id", nonEmpty: true)
        event.contentAvailable = try fields.bool("content_available") ?? false
        event.mutableContent = try fields.bool("mutable_content")
        event.debug = try fields.bool("debug") ?? false
        event.includeDeviceAttributes = try fields.bool("include_device_attributes") ?? false
        event.excludeTokens = Set(try fields.stringArray("exclude_tokens") ?? [])
        for rules in providers.rules {
            guard let name = rules.eventSection, let section = try fields.object(name) else { continue }
            event.providerSections[name] = try rules.decodeEventSection(FieldReader(object: section, path: name))
        }
        // A channel counts once here: how many devices it reaches is known only when it is expanded.
        event.context = try decodeContext(
            fields, outcomes: targets.count + channels.count + invalidTargets.count, limits: limits)
        return event
    }

    private static func decodeID(_ fields: FieldReader, limits: EventLimits) throws(EventError) -> String? {
        guard let id = try fields.string("id", nonEmpty: true) else { return nil }
        guard id.utf8.count <= limits.maxIDBytes else {
            throw EventError(
                field: "id",
                message: "is \(id.utf8.count) bytes, over the limit of \(limits.maxIDBytes) "
                    + "(it is the AMQP message-id of every outcome)")
        }
        return id
    }

    /// `context`, within its own size limit and the limit on all outcomes' copies of it.
    private static func decodeContext(_ fields: FieldReader, outcomes: Int, limits: EventLimits) throws(EventError)
        -> JSONObject?
    {
        guard let context = try fields.object("context") else { return nil }
        let size = context.serializedCount(excluding: [])
        guard size <= limits.maxContextBytes else {
            throw EventError(
                field: "context",
                message: "is \(size) bytes serialized, over the limit of "
                    + "\(limits.maxContextBytes) (it is echoed in every outcome)")
        }
        let total = OutcomeBudget.contextBytes(size: size, outcomes: outcomes)
        guard total <= limits.maxContextFanoutBytes else {
            throw EventError(
                field: "context",
                message: "\(size) bytes echoed in each of \(outcomes) outcomes is "
                    + "\(total) bytes, over the limit of "
                    + "\(limits.maxContextFanoutBytes); make context smaller or split the targets over several events")
        }
        return context
    }

    /// The `id` and `app` of a body that could not be decoded as an event,
    /// where they can still be read (a JSON object with a non-empty string
    /// `id` within the id limit, a valid app name in `app`): a `rejected` outcome carries them,
    /// so upstream bound to `rejected.*.<app>` learns of its own events.
    public static func identity(of bytes: [UInt8], limits: EventLimits = .default) -> (id: String?, app: String?) {
        guard bytes.count <= limits.maxBytes,
            case .object(let root)? = try? JSONValue.parse(
                bytes, limits: JSONLimits(maxDepth: limits.maxJSONDepth, maxBytes: limits.maxBytes))
        else { return (nil, nil) }
        let id = root["id"]?.stringValue.flatMap { $0.isEmpty || $0.utf8.count > limits.maxIDBytes ? nil : $0 }
        let app = root["app"]?.stringValue.flatMap { isValidAppName($0) ? $0 : nil }
        return (id, app)
    }

    /// An app name: 1 to 64 letters, digits, `-` or `_`. It becomes the
    /// last word of outcome routing keys, where `.`, `*` and `#` would break
    /// AMQP topic matching.
    private static func decodeApp(_ fields: FieldReader) throws(EventError) -> String? {
        guard let value = fields.value("app") else { return nil }
        guard case .string(let app) = value, isValidAppName(app) else {
            throw .mismatch("app", expected: "an app name (1 to 64 letters, digits, '-' or '_')", found: value)
        }
        return app
    }

    /// Whether `name` can be an app name; config validation applies the same rule.
    public static func isValidAppName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    private static func decodePushType(_ fields: FieldReader) throws(EventError) -> PushType? {
        guard let value = fields.value("push_type") else { return nil }
        guard case .string(let name) = value else {
            throw .mismatch("push_type", expected: "a push type name", found: value)
        }
        guard let pushType = PushType(rawValue: name) else {
            let names = PushType.allCases.map(\.rawValue)
            let hint =
                Suggestions.closest(to: name, among: names).map { "did you mean \(JSONText.quoted($0))?" }
                ?? "expected \(EventError.list(names))"
            throw EventError(field: "push_type", message: "unknown push type \(JSONText.quoted(name)) (\(hint))")
        }
        return pushType
    }

    /// `"high"`, `"normal"`, `"low"`, or the numbers 10, 5, 1 (Apple's, which
    /// people copy from APNs examples: the event contract accepts them as
    /// another spelling; how APNs sends a priority is HeraldAPNs' `APNsPriority`).
    private static func decodePriority(_ fields: FieldReader) throws(EventError) -> Priority? {
        guard let value = fields.value("priority") else { return nil }
        let expected = "high, normal, low, 10, 5 or 1"
        switch value {
        case .string(let name):
            if let priority = Priority(rawValue: name) { return priority }
            let suggestion = Suggestions.closest(to: name, among: Priority.allCases.map(\.rawValue))
            let hint = suggestion.map { "; did you mean \(JSONText.quoted($0))?" } ?? ""
            throw EventError(
                field: "priority", message: "unknown priority \(JSONText.quoted(name)) (expected \(expected)\(hint))")
        case .number:
            switch value.intValue {
            case 10: return .high
            case 5: return .normal
            case 1: return .low
            default: break
            }
            throw .mismatch("priority", expected: expected, found: value)
        default:
            throw .mismatch("priority", expected: expected, found: value)
        }
    }

    /// `ttl` (seconds) or `expires_at` (RFC 3339), not both.
    private static func decodeExpiry(_ fields: FieldReader) throws(EventError) -> Expiry? {
        let ttl = try fields.nonNegativeInt("ttl")
        guard let value = fields.value("expires_at") else { return ttl.map { .ttl(seconds: $0) } }
        guard ttl == nil else {
            throw EventError(field: "ttl", message: "cannot be combined with \"expires_at\"; give one of them")
        }
        guard case .string(let text) = value, let timestamp = Timestamp(rfc3339: text) else {
            throw .mismatch("expires_at", expected: "an RFC 3339 time such as \"2026-11-30T10:00:00Z\"", found: value)
        }
        return .at(timestamp)
    }
}
