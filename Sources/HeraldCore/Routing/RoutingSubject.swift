/// Everything a routing rule may test about one target of one event.
///
/// Rules are evaluated per target, so a `provider` condition tests exactly the
/// provider of the target being routed and a `drop` drops just that target.
public struct RoutingSubject {
    /// The AMQP routing key the event was published with.
    public var routingKey: String
    /// AMQP message headers whose values are strings (or rendered as strings).
    public var headers: [String: String]
    /// The event's own `app`, if it names one.
    public var app: String?
    public var provider: Provider
    /// The event's push type as it will be sent (explicit, or resolved from `content_available`).
    public var pushType: PushType?
    /// The event's own priority, if it gives one.
    public var priority: Priority?
    /// Looks up `data.<key>` rendered as a string (numbers and booleans as their JSON text).
    public var data: (String) -> String?

    public init(
        routingKey: String, headers: [String: String] = [:], app: String? = nil, provider: Provider,
        pushType: PushType? = nil, priority: Priority? = nil, data: @escaping (String) -> String? = { _ in nil }
    ) {
        self.routingKey = routingKey
        self.headers = headers
        self.app = app
        self.provider = provider
        self.pushType = pushType
        self.priority = priority
        self.data = data
    }

    func value(of field: RouteField) -> String? {
        switch field {
        case .app: app
        case .provider: provider.rawValue
        case .pushType: pushType?.rawValue
        case .priority: priority?.rawValue
        case .data(let key): data(key)
        }
    }
}

extension RoutingSubject {
    /// What the rules see of `target` in `event`, published with `routingKey` and `headers`.
    public init(event: Event, target: Target, routingKey: String, headers: [String: String] = [:]) {
        let data = event.data
        self.init(
            routingKey: routingKey, headers: headers, app: event.app, provider: target.provider,
            pushType: event.resolvedPushType, priority: event.priority,
            data: { key in
                guard let value = data?[key] else { return nil }
                // Strings as written; numbers and booleans as their JSON text.
                return value.stringValue ?? value.jsonString
            })
    }
}
