// The outcome's wire form (docs/event-model.md "Outcome"): snake_case keys in a fixed
// order, absent values omitted, times in RFC 3339 UTC.

extension Outcome {
    /// The outcome as a JSON object, keys in the schema's order: `event_id`,
    /// `app`, `provider`, `token`|`fid`|`topic`|`condition`, `channel`, `device`, `status`, `reason`, `detail`,
    /// `provider_status`, `invalidated_at`, `unregistered`, `next_attempt_at`,
    /// `provider_message_id`, `attempt`, `uncertain`, `redelivered`, `latency_ms`, `at`, `context`
    /// (`unregistered`, `uncertain` and `redelivered` only when true).
    ///
    /// `at` always has milliseconds (`2026-11-30T10:00:01.234Z`);
    /// `invalidated_at` and `next_attempt_at` drop a zero fraction
    /// (`2026-11-30T10:00:00Z`). `latency_ms` is rounded to the microsecond.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        emitMembers(into: &object)
        return .object(object)
    }

    /// The outcome's JSON bytes, the body published to the results exchange:
    /// the text of `jsonValue`, written directly (this runs per notification).
    public var encoded: [UInt8] {
        var writer = JSONObjectWriter(capacity: 320)
        emitMembers(into: &writer)
        return writer.finish()
    }

    /// The members, in the order of the outcome schema; the one list both forms come from.
    private func emitMembers(into sink: inout some JSONMemberSink) {
        sink.string("event_id", eventID)
        if let app { sink.string("app", app) }
        if let provider { sink.string("provider", provider.rawValue) }
        if let address { sink.string(address.field, address.value) }
        if let channel { sink.string("channel", channel) }
        if let deviceAttributes { sink.value("device", .object(deviceAttributes)) }
        sink.string("status", status.rawValue)
        if let reason { sink.string("reason", reason) }
        if let detail { sink.string("detail", detail) }
        if let providerStatus { sink.number("provider_status", JSONNumber(providerStatus)) }
        if let invalidatedAt { sink.string("invalidated_at", Self.format(invalidatedAt)) }
        if unregistered { sink.value("unregistered", .bool(true)) }
        if let nextAttemptAt { sink.string("next_attempt_at", Self.format(nextAttemptAt)) }
        if let providerMessageID { sink.string("provider_message_id", providerMessageID) }
        sink.number("attempt", JSONNumber(attempt))
        if uncertain { sink.value("uncertain", .bool(true)) }
        if redelivered { sink.value("redelivered", .bool(true)) }
        if let latencyMs, let number = JSONNumber((latencyMs * 1000).rounded() / 1000) {
            sink.number("latency_ms", number)
        }
        sink.string("at", at.rfc3339(fractionDigits: 3))
        if let context { sink.value("context", context) }
    }

    private static func format(_ timestamp: Timestamp) -> String {
        timestamp.rfc3339(fractionDigits: timestamp.nanoseconds < 1_000_000 ? 0 : 3)
    }
}

extension Outcome {
    /// Decodes an outcome (upstream consumers, tests). Unknown fields are
    /// ignored so consumers keep working when outcomes gain fields;
    /// `event_id`, `status` and `at` are required, `attempt` defaults to 1.
    public static func decode(_ bytes: [UInt8], providers: ProviderCatalog, limits: JSONLimits = .default)
        throws(EventError) -> Outcome
    {
        let json: JSONValue
        do throws(JSONError) {
            json = try JSONValue.parse(bytes, limits: limits)
        } catch {
            throw EventError(field: "body", message: error.description)
        }
        return try decode(json: json, providers: providers)
    }

    /// Decodes an outcome from an already parsed JSON value.
    /// `providers` names the providers and kinds of address an outcome may have.
    public static func decode(json: JSONValue, providers: ProviderCatalog) throws(EventError) -> Outcome {
        guard case .object(let root) = json else {
            throw EventError(field: "outcome", message: "expected a JSON object, found \(json.kindDescription)")
        }
        let fields = FieldReader(object: root, path: "")
        guard let eventID = try fields.string("event_id") else {
            throw EventError(field: "event_id", message: "missing")
        }
        guard let statusName = try fields.string("status") else {
            throw EventError(field: "status", message: "missing")
        }
        guard let status = Status(rawValue: statusName) else {
            let names = Status.allCases.map(\.rawValue)
            throw EventError(
                field: "status",
                message: "unknown status \(JSONText.quoted(statusName)) (expected \(EventError.list(names)))")
        }
        guard let at = try timestamp(fields, "at") else {
            throw EventError(field: "at", message: "missing")
        }

        var outcome = Outcome(status: status, eventID: eventID, at: at)
        outcome.app = try fields.string("app")
        if let providerName = try fields.string("provider") {
            guard let provider = providers.provider(named: providerName) else {
                throw EventError(
                    field: "provider",
                    message:
                        "unknown provider \(JSONText.quoted(providerName)) (expected \(EventError.list(providers.acceptedNames)))"
                )
            }
            outcome.provider = provider
        }
        outcome.address = try address(fields, kinds: providers.addressKinds)
        outcome.reason = try fields.string("reason")
        outcome.detail = try fields.string("detail")
        outcome.providerStatus = try integer(fields, "provider_status")
        outcome.invalidatedAt = try timestamp(fields, "invalidated_at")
        outcome.nextAttemptAt = try timestamp(fields, "next_attempt_at")
        outcome.providerMessageID = try fields.string("provider_message_id")
        outcome.attempt = try fields.nonNegativeInt("attempt") ?? 1
        outcome.channel = try fields.string("channel")
        outcome.deviceAttributes = try fields.object("device")
        outcome.unregistered = try fields.bool("unregistered") ?? false
        outcome.uncertain = try fields.bool("uncertain") ?? false
        outcome.redelivered = try fields.bool("redelivered") ?? false
        if let latency = fields.value("latency_ms") {
            guard let milliseconds = latency.doubleValue else {
                throw .mismatch("latency_ms", expected: "a number", found: latency)
            }
            outcome.latencyMs = milliseconds
        }
        outcome.context = fields.value("context")
        return outcome
    }

    private static func address(_ fields: FieldReader, kinds: [Target.Address.Kind]) throws(EventError) -> Target
        .Address?
    {
        var found: Target.Address?
        for kind in kinds {
            guard let value = try fields.string(kind.field) else { continue }
            if let found {
                throw EventError(
                    field: kind.field,
                    message: "cannot be combined with \(JSONText.quoted(found.field)); an outcome has one address")
            }
            found = Target.Address(kind, value)
        }
        return found
    }

    private static func integer(_ fields: FieldReader, _ key: String) throws(EventError) -> Int? {
        guard let value = fields.value(key) else { return nil }
        guard let int = value.intValue else { throw .mismatch(key, expected: "an integer", found: value) }
        return int
    }

    private static func timestamp(_ fields: FieldReader, _ key: String) throws(EventError) -> Timestamp? {
        guard let value = fields.value(key) else { return nil }
        guard case .string(let text) = value, let timestamp = Timestamp(rfc3339: text) else {
            throw .mismatch(key, expected: "an RFC 3339 time", found: value)
        }
        return timestamp
    }
}
