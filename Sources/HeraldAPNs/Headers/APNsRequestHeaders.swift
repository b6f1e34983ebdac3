import HeraldCore
import HeraldHTTPClient

/// The `apns-*` headers of one request, typed; `fields` renders them in a
/// stable order with the event's raw `apns.headers` laid over them.
public struct APNsRequestHeaders: Sendable, Hashable {
    public var pushType: PushType
    public var topic: String
    public var priority: APNsPriority
    public var expiration: APNsExpiration
    public var collapseID: String?
    /// Lowercase UUID; APNs echoes it back.
    public var apnsID: String
    /// Raw headers from the event, replacing any built one of the same name.
    public var overrides: [String: String]

    public init(
        pushType: PushType, topic: String, priority: APNsPriority, expiration: APNsExpiration = .apnsDefault,
        collapseID: String? = nil, apnsID: String, overrides: [String: String] = [:]
    ) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
        self.overrides = overrides
    }

    /// The headers for `event`, sent at `now` to an app whose bundle id is `bundleID`.
    public init(event: Event, bundleID: String, now: Timestamp, apnsID: String) {
        let pushType = event.resolvedPushType
        self.init(
            pushType: pushType, topic: APNsTopic.topic(bundleID: bundleID, pushType: pushType),
            priority: APNsPriority(event.resolvedPriority, pushType: pushType),
            expiration: APNsExpiration(event: event, now: now), collapseID: event.collapseID, apnsID: apnsID,
            overrides: event.apns?.headers ?? [:])
    }

    /// Name/value pairs, each name once: push type, topic, priority,
    /// expiration, collapse id, id, then override-only names sorted.
    public var fields: [(name: String, value: String)] {
        // One allocation: room for the six fields and the provider token
        // `APNsProvider` puts first.
        var built: [(name: String, value: String)] = []
        built.reserveCapacity(7)
        built.append((APNsHeaderName.pushType, pushType.rawValue))
        built.append((APNsHeaderName.topic, topic))
        built.append((APNsHeaderName.priority, String(priority.rawValue)))
        if let value = expiration.headerValue { built.append((APNsHeaderName.expiration, value)) }
        if let collapseID { built.append((APNsHeaderName.collapseID, collapseID)) }
        built.append((APNsHeaderName.id, apnsID))
        // The common case (no raw headers in the event) needs no overlay.
        if overrides.isEmpty { return built }
        var result = built.map { field in (name: field.name, value: overrides[field.name] ?? field.value) }
        let builtNames = Set(built.map(\.name))
        for name in overrides.keys.sorted() where !builtNames.contains(name) {
            result.append((name: name, value: overrides[name] ?? ""))
        }
        return result
    }

    /// Checks every field against `HTTPFieldRule` (the rule the HTTP client
    /// enforces for both engines), so an event field that would make an
    /// invalid header is this target's `InvalidHeader` rejection naming the
    /// event field, before anything is signed or sent.
    public func checkFields() throws(DeliveryRejection) {
        func check(_ name: String, _ value: String) throws(DeliveryRejection) {
            guard let problem = HTTPFieldRule.problem(name: name, value: value) else { return }
            throw DeliveryRejection(reason: "InvalidHeader", message: "\(source(of: name)) cannot be sent: \(problem)")
        }
        guard overrides.isEmpty else {
            for field in fields { try check(field.name, field.value) }
            return
        }
        // Without raw headers only these can break the rule, in `fields`' order: the other names are
        // constants and the other values Herald's own words and digits (every request passes here).
        try check(APNsHeaderName.topic, topic)
        if let collapseID { try check(APNsHeaderName.collapseID, collapseID) }
        try check(APNsHeaderName.id, apnsID)
    }

    /// Where the value of header `name` comes from, for messages.
    func source(of name: String) -> String {
        if overrides[name] != nil {
            // A name that breaks the rule is not repeated here (the rule's message shows it escaped).
            return HTTPFieldRule.problem(inName: name) == nil
                ? "event field apns.headers.\(name)" : "a name in event field apns.headers"
        }
        switch name {
        case APNsHeaderName.collapseID: return "event field collapse_id"
        case APNsHeaderName.topic: return "the app's topic (bundle id)"
        default: return "header \(name)"
        }
    }

    /// The value actually sent for `name`, overrides included.
    public func value(_ name: String) -> String? {
        if let override = overrides[name] { return override }
        switch name {
        case APNsHeaderName.pushType: return pushType.rawValue
        case APNsHeaderName.topic: return topic
        case APNsHeaderName.priority: return String(priority.rawValue)
        case APNsHeaderName.expiration: return expiration.headerValue
        case APNsHeaderName.collapseID: return collapseID
        case APNsHeaderName.id: return apnsID
        default: return nil
        }
    }
}

/// The request and response header names APNs defines.
public enum APNsHeaderName {
    public static let authorization = "authorization"
    public static let pushType = "apns-push-type"
    public static let topic = "apns-topic"
    public static let priority = "apns-priority"
    public static let expiration = "apns-expiration"
    public static let collapseID = "apns-collapse-id"
    public static let id = "apns-id"
    /// Sandbox only: the id to look the notification up in the Push Notifications Console.
    public static let uniqueID = "apns-unique-id"
}
