/// Applies the ordered routing rules: the first rule whose `match` holds decides;
/// when none matches, the target is delivered with the event's own `app`.
///
/// Pure and synchronous: the pipeline calls it once per target.
public struct Router: Sendable, Equatable {
    public let rules: [RoutingRule]

    public init(rules: [RoutingRule]) {
        self.rules = rules
    }

    public func route(_ subject: RoutingSubject) -> RouteDecision {
        guard let rule = rules.first(where: { $0.match.holds(for: subject) }) else {
            return RouteDecision(app: subject.app)
        }
        var decision = RouteDecision(
            rule: rule.name, app: rule.app ?? subject.app, set: rule.set, defaults: rule.defaults)
        if let reason = rule.drop {
            decision.drop = .rule(name: rule.name, reason: reason)
        } else if let allowed = rule.providers, !allowed.contains(subject.provider) {
            decision.drop = .providerNotAllowed(rule: rule.name, provider: subject.provider)
        }
        return decision
    }
}
