import HeraldCore
import HeraldProviders
import HeraldSystem

/// Turns `herald send` options into an `Event`, through the same decoder and
/// validation as events from the broker (so `--push-type alrt` gets the same
/// did-you-mean as a bad event would).
enum SendEventBuilder {
    static func event(from parsed: ParsedArguments, id: String) throws(UsageError) -> Event {
        let options = parsed.options
        var notification = JSONObject()
        for name in SendCommand.stringOptions {
            if let value = options[name] { notification[name.replacingHyphens] = .string(value) }
        }
        if let badge = options["badge"] {
            guard let number = Int(badge) else { throw UsageError("--badge: expected a number, found '\(badge)'") }
            notification["badge"] = .number(JSONNumber(number))
        }
        var event = JSONObject()
        event["id"] = .string(id)
        event["app"] = options["app"].map(JSONValue.string)
        event["provider"] = options["provider"].map(JSONValue.string)
        for (address, _) in SendCommand.addresses {
            guard let value = options[address.field] else { continue }
            event[address.field] = address.readsJSONFile ? try jsonFile(value, option: address.field) : .string(value)
        }
        if !notification.isEmpty { event["notification"] = .object(notification) }
        event["push_type"] = options["push-type"].map(JSONValue.string)
        event["priority"] = options["priority"].map(JSONValue.string)
        if let ttl = options["ttl"] {
            guard let seconds = Int(ttl) else { throw UsageError("--ttl: expected seconds, found '\(ttl)'") }
            event["ttl"] = .number(JSONNumber(seconds))
        }
        event["collapse_id"] = options["collapse-id"].map(JSONValue.string)
        if let data = options["data"] { event["data"] = try json(data, option: "data") }
        if let payload = options["apns-payload"] {
            event["apns"] = .object(JSONObject([("payload", try json(payload, option: "apns-payload"))]))
        }
        if parsed.flags.contains("content-available") { event["content_available"] = true }
        if parsed.flags.contains("mutable-content") { event["mutable_content"] = true }
        do {
            return try Event.decode(json: .object(event), fallbackID: id, providers: .registered)
        } catch {
            throw UsageError("the notification is not valid: \(error)")
        }
    }

    /// The JSON object in the file an address option names (a subscription, `PushSubscription.toJSON()`).
    private static func jsonFile(_ file: String, option: String) throws(UsageError) -> JSONValue {
        let contents: BoundedFile
        do {
            contents = try BoundedFile(path: file, limit: .key)
        } catch {
            throw UsageError("--\(option): the file \(error.problem)")
        }
        guard let value = try? JSONValue.parse(contents.bytes), value.objectValue != nil else {
            throw UsageError("--\(option): \(file) is not a JSON object")
        }
        return value
    }

    private static func json(_ text: String, option: String) throws(UsageError) -> JSONValue {
        guard let value = try? JSONValue.parse(text), value.objectValue != nil else {
            throw UsageError("--\(option): expected a JSON object")
        }
        return value
    }
}

extension String {
    fileprivate var replacingHyphens: String { String(map { $0 == "-" ? "_" : $0 }) }
}
