import HeraldCore

/// The records of an event's debug trace (docs/debug-trace.md) as the
/// results exchange carries them: the route record of an event's (or a
/// channel page's) routing, and one delivery record per traced target. They
/// exist so one event can be followed through Herald without logs: which
/// rule decided what, the request as sent with its secrets redacted, the
/// provider's answer and the timings.
///
/// Every record is bounded: at most ``RouteTrace/maxEntries`` targets per
/// route record, ``DebugRedaction/maxExchanges`` exchanges per delivery
/// record, each body cut to ``DebugRedaction/maxBodyBytes``.
public struct DebugTraceRecord: Sendable, Equatable {
    /// `debug.route.<app>` or `debug.<provider>.<app>`.
    public var routingKey: String
    /// The record's JSON.
    public var body: [UInt8]

    /// The first word of every trace record's routing key: bind `debug.#` to see them all.
    public static let routingKeyPrefix = "debug"
    /// The second word of a route record's key, where a delivery record has its provider.
    public static let routeWord = "route"

    /// A traced target's delivery: what the pipeline keeps until the event's batch is published.
    public struct Delivery: Sendable {
        public var send: EventPlan.Send
        public var outcome: Outcome
        public var trace: DeliveryTrace

        public init(send: EventPlan.Send, outcome: Outcome, trace: DeliveryTrace) {
            self.send = send
            self.outcome = outcome
            self.trace = trace
        }
    }

    /// The route record of `plan`'s trace, on `debug.route.<app>`: the event's
    /// own app, else the first one routing chose (`unknown` when there is none).
    public static func route(_ trace: RouteTrace, plan: EventPlan, at now: Timestamp) -> DebugTraceRecord {
        let app = plan.event?.app ?? trace.entries.lazy.compactMap(\.app).first
        var object = JSONObject()
        object.string("trace", "route")
        object.string("event_id", plan.event?.id ?? "")
        if let app { object.string("app", app) }
        object.string("routing_key", trace.routingKey)
        object.number("attempt", JSONNumber(plan.attempt))
        object.string("at", now.rfc3339(fractionDigits: 3))
        var targets: [JSONValue] = []
        targets.reserveCapacity(trace.entries.count)
        for entry in trace.entries {
            var target = JSONObject()
            target.string("provider", entry.target.provider.rawValue)
            target.string(entry.target.address.field, shown(entry.target.address))
            if let channel = entry.target.channel { target.string("channel", channel) }
            target.value("rule", entry.rule.map { .string($0) } ?? .null)
            if let app = entry.app { target.string("app", app) }
            if !entry.set.isEmpty { target.value("set", .object(members(of: entry.set))) }
            if !entry.defaults.isEmpty { target.value("defaults", .object(members(of: entry.defaults))) }
            switch entry.result {
            case .send: target.string("result", "send")
            case .excluded: target.string("result", "excluded")
            case .expired: target.string("result", "expired")
            case .dropped(let reason):
                target.string("result", "dropped")
                target.string("reason", reason)
            case .rejected(let reason):
                target.string("result", "rejected")
                target.string("reason", reason)
            }
            targets.append(.object(target))
        }
        object.value("targets", .array(targets))
        if trace.omitted > 0 { object.number("targets_omitted", JSONNumber(trace.omitted)) }
        if trace.untracedSends > 0 { object.number("sends_untraced", JSONNumber(trace.untracedSends)) }
        let key = "\(routingKeyPrefix).\(routeWord).\(Outcome.routingWord(app))"
        return DebugTraceRecord(routingKey: key, body: JSONValue.object(object).serialized)
    }

    /// The delivery record of one traced target, on `debug.<provider>.<app>` (the app that delivered).
    public static func delivery(_ delivery: Delivery, at now: Timestamp) -> DebugTraceRecord {
        let send = delivery.send
        var object = JSONObject()
        object.string("trace", "delivery")
        object.string("event_id", delivery.outcome.eventID)
        object.string("app", send.app)
        object.string("provider", send.target.provider.rawValue)
        object.string(send.target.address.field, shown(send.target.address))
        if let channel = send.target.channel { object.string("channel", channel) }
        if let rule = send.rule { object.string("rule", rule) }
        object.number("attempt", JSONNumber(delivery.outcome.attempt))
        object.string("at", now.rfc3339(fractionDigits: 3))
        var outcome = delivery.outcome
        outcome.context = nil
        var outcomeObject = outcome.jsonValue.objectValue ?? JSONObject()
        if let address = outcome.address { outcomeObject[address.field] = .string(shown(address)) }
        object.value("outcome", .object(outcomeObject))
        object.value("exchanges", .array(delivery.trace.exchanges.map(exchange)))
        if delivery.trace.omittedExchanges > 0 {
            object.number("exchanges_omitted", JSONNumber(delivery.trace.omittedExchanges))
        }
        let key = "\(routingKeyPrefix).\(send.target.provider.rawValue).\(Outcome.routingWord(send.app))"
        return DebugTraceRecord(routingKey: key, body: JSONValue.object(object).serialized)
    }

    private static func exchange(_ exchange: DeliveryTrace.Exchange) -> JSONValue {
        var object = JSONObject()
        object.value("request", message(exchange.request))
        if let response = exchange.response { object.value("response", message(response)) }
        if let error = exchange.error { object.string("error", error) }
        var timings = JSONObject()
        timings.value("sent", milliseconds(exchange.sentMs))
        if let answered = exchange.answeredMs {
            timings.value("answered", milliseconds(answered))
            timings.value("round_trip", milliseconds(answered - exchange.sentMs))
        }
        object.value("timings_ms", .object(timings))
        return .object(object)
    }

    private static func message(_ message: DeliveryTrace.Message) -> JSONValue {
        var object = JSONObject()
        if let method = message.method { object.string("method", method) }
        if let url = message.url { object.string("url", url) }
        if let status = message.status { object.number("status", JSONNumber(status)) }
        var headers = JSONObject()
        for (name, value) in message.headers {
            // A name repeated in an answer is shown once, its values joined as HTTP would fold them.
            if let earlier = headers[name]?.stringValue {
                headers[name] = .string(earlier + ", " + value)
            } else {
                headers[name] = .string(value)
            }
        }
        object.value("headers", .object(headers))
        object.string("body", message.body)
        object.number("body_bytes", JSONNumber(message.bodyBytes))
        if message.bodyTruncated { object.value("body_truncated", .bool(true)) }
        return .object(object)
    }

    private static func milliseconds(_ value: Double) -> JSONValue {
        JSONNumber((value * 1000).rounded() / 1000).map { .number($0) } ?? .null
    }

    /// A device token or FID masked as logs mask it; a topic or condition as it is.
    static func shown(_ address: Target.Address) -> String {
        address.isDevice ? LogValue.mask(token: address.value) : address.value
    }

    /// A rule's `set` or `defaults`, as the config names the fields.
    static func members(of overrides: EventOverrides) -> JSONObject {
        var object = JSONObject()
        if let v = overrides.priority { object.string("priority", v.rawValue) }
        if let v = overrides.ttl { object.number("ttl", JSONNumber(v)) }
        if let v = overrides.pushType { object.string("push_type", v.rawValue) }
        if let v = overrides.collapseID { object.string("collapse_id", v) }
        if let v = overrides.sound { object.string("sound", v) }
        if let v = overrides.contentAvailable { object.value("content_available", .bool(v)) }
        if let v = overrides.mutableContent { object.value("mutable_content", .bool(v)) }
        if let v = overrides.debug { object.value("debug", .bool(v)) }
        return object
    }
}
