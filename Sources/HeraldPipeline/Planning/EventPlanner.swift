import HeraldCore

/// Turns an incoming message into an `EventPlan`: decode and validate, route
/// each target, drop excluded tokens, expire stale events, reject what no
/// configured app can deliver. Pure: time and id generation are passed in.
public struct EventPlanner: Sendable {
    public let router: Router
    /// For each configured app, the providers it has credentials for.
    public let apps: [String: Set<Provider>]
    public let limits: EventLimits

    public init(router: Router, apps: [String: Set<Provider>], limits: EventLimits = .default) {
        self.router = router
        self.apps = apps
        self.limits = limits
    }

    public func plan(_ incoming: IncomingEvent, now: Timestamp, newID: () -> String) -> EventPlan {
        let attempt = incoming.attempt
        let receivedAt = incoming.firstReceivedAt ?? now
        let fallbackID = incoming.messageID ?? newID()
        let event: Event
        do {
            event = try Event.decode(incoming.body, fallbackID: fallbackID, limits: limits)
        } catch {
            let outcome = Outcome(status: .rejected, eventID: fallbackID, reason: error.description, attempt: attempt, at: now)
            return EventPlan(event: nil, attempt: attempt, receivedAt: receivedAt, sends: [], outcomes: [outcome],
                             deadLetterReason: error.description)
        }

        var plan = EventPlan(event: event, attempt: attempt, receivedAt: receivedAt, sends: [], outcomes: [])
        var rejections: [String] = []
        for target in event.targets {
            func outcome(_ status: Outcome.Status, _ reason: String, app: String? = event.app) -> Outcome {
                var o = Outcome(status, event: event, target: target, attempt: attempt, at: now)
                o.app = app
                o.reason = reason
                return o
            }
            if event.isExcluded(target) {
                plan.outcomes.append(outcome(.dropped, "token is in exclude_tokens"))
                continue
            }
            let decision = router.route(RoutingSubject(event: event, target: target, routingKey: incoming.routingKey,
                                                       headers: incoming.headers))
            if let drop = decision.drop {
                plan.outcomes.append(outcome(.dropped, drop.description, app: decision.app))
                continue
            }
            guard let app = decision.app else {
                let reason = "no app: the event names none and no route chose one"
                rejections.append(reason)
                plan.outcomes.append(outcome(.rejected, reason, app: nil))
                continue
            }
            guard let providers = apps[app] else {
                let reason = "unknown app '\(app)'" + Suggestions.didYouMean(app, among: apps.keys.sorted())
                rejections.append(reason)
                plan.outcomes.append(outcome(.rejected, reason, app: app))
                continue
            }
            guard providers.contains(target.provider) else {
                let reason = "app '\(app)' has no \(target.provider) credentials"
                rejections.append(reason)
                plan.outcomes.append(outcome(.rejected, reason, app: app))
                continue
            }
            var routed = event.applying(decision)
            // Expiry is judged after routing: a route's `set: {ttl: ...}` counts.
            if routed.isExpired(at: now, receivedAt: receivedAt) {
                plan.outcomes.append(outcome(.expired, "past its ttl before it could be sent", app: app))
                continue
            }
            // Providers see an absolute expiry counted from the first receipt, so a retry
            // never extends `ttl` (apns-expiration, FCM ttl). `ttl: 0` keeps its "now or never".
            if case .ttl(let seconds)? = routed.expiry, seconds > 0 {
                routed.expiry = .at(receivedAt + .seconds(seconds))
            }
            plan.sends.append(EventPlan.Send(target: target, event: routed, app: app, rule: decision.rule))
        }
        if !rejections.isEmpty {
            plan.deadLetterReason = rejections.joined(separator: "; ")
        }
        return plan
    }
}
