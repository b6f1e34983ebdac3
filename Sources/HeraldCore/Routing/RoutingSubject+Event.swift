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
