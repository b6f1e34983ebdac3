/// The condition of a routing rule: every test present must hold (AND); a test
/// with several accepted values holds when any of them matches (OR).
/// An empty match holds for everything.
public struct RouteMatch: Sendable, Equatable {
    /// The routing key must match one of these AMQP topic patterns.
    public var routingKeys: [TopicPattern]
    /// Each named AMQP header must be present with one of the listed values.
    public var headers: [String: [String]]
    /// Each event field must equal one of the listed values.
    public var fields: [RouteField: [String]]

    public init(
        routingKeys: [TopicPattern] = [], headers: [String: [String]] = [:], fields: [RouteField: [String]] = [:]
    ) {
        self.routingKeys = routingKeys
        self.headers = headers
        self.fields = fields
    }

    public func holds(for subject: RoutingSubject) -> Bool {
        if !routingKeys.isEmpty, !routingKeys.contains(where: { $0.matches(subject.routingKey) }) {
            return false
        }
        for (name, accepted) in headers {
            guard let value = subject.headers[name], accepted.contains(value) else { return false }
        }
        for (field, accepted) in fields {
            guard let value = subject.value(of: field), accepted.contains(value) else { return false }
        }
        return true
    }
}
