import HeraldCore

/// Turns an incoming message into an `EventPlan`: decode and validate, give
/// each target that cannot be addressed its own terminal outcome, route each
/// other target, drop excluded tokens, expire stale events, reject what no
/// configured app can deliver. Pure: time and id generation are passed in.
public struct EventPlanner: Sendable {
    public let router: Router
    /// For each configured app, the providers it has credentials for.
    public let apps: [String: Set<Provider>]
    /// The providers events may name, with their rules.
    public let providers: ProviderCatalog
    public let limits: EventLimits
    /// Bounds what Herald's own retry headers may claim (see ``receipt(of:now:)``).
    public let retryPolicy: RetryPolicy
    /// Per app, the AMQP users (`user-id`) whose events may be delivered for
    /// it; an app absent here takes events from anyone who can publish them.
    public let publishers: [String: Set<String>]

    public init(
        router: Router, apps: [String: Set<Provider>], providers: ProviderCatalog, limits: EventLimits = .default,
        retryPolicy: RetryPolicy = RetryPolicy(
            maxAttempts: 5, delays: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)]),
        publishers: [String: Set<String>] = [:]
    ) {
        self.router = router
        self.apps = apps
        self.providers = providers
        self.limits = limits
        self.retryPolicy = retryPolicy
        self.publishers = publishers
    }

    /// Why `incoming` may not be delivered for `app`: its `user-id` is
    /// missing or not one of the app's publishers. Nil when the app lists
    /// none, or lists the sender.
    public func publisherProblem(_ incoming: IncomingEvent, app: String) -> String? {
        guard let allowed = publishers[app] else { return nil }
        guard let user = incoming.userID else {
            return
                "no AMQP user-id: app '\(app)' takes events only from its publishers, and the message does not say who sent it"
        }
        return allowed.contains(user)
            ? nil : "publisher \(JSONText.quoted(user)) (AMQP user-id) is not an events publisher of app '\(app)'"
    }

    /// The attempt and first receipt time of `incoming`, from Herald's retry
    /// headers as far as they can be true. Any publisher can set those headers,
    /// so: the attempt is at most `max_attempts` (a larger claim is the last
    /// attempt); a receipt time counts only on a retry (attempt 2 or later),
    /// never lies in the future, and lies at most the longest wait the retry
    /// schedule allows before that attempt in the past (a retry that also sat
    /// in a backed-up queue counts its ttl from a little later than it was
    /// first received, never earlier). A forged pair can make an event look
    /// like one of its own retries, no more.
    public func receipt(of incoming: IncomingEvent, now: Timestamp) -> (attempt: Int, receivedAt: Timestamp) {
        let attempt = min(incoming.claimedAttempt, max(1, retryPolicy.maxAttempts))
        guard attempt > 1, let claimed = incoming.claimedReceivedAt else { return (attempt, now) }
        let earliest = now + (.zero - retryPolicy.longestWait(before: attempt))
        return (attempt, min(now, max(earliest, claimed)))
    }

    public func plan(_ incoming: IncomingEvent, now: Timestamp, newID: () -> String) -> EventPlan {
        let (attempt, receivedAt) = receipt(of: incoming, now: now)
        let fallbackID = incoming.messageID ?? newID()
        let event: Event
        do throws(EventError) {
            event = try Event.decode(incoming.body, fallbackID: fallbackID, providers: providers, limits: limits)
        } catch {
            // The body's own id and app, where they can still be read, so the
            // publisher recognises its event and `rejected.*.<app>` reaches it.
            let identity = Event.identity(of: incoming.body, limits: limits)
            let outcome = Outcome(
                status: .rejected, eventID: identity.id ?? fallbackID, app: identity.app,
                reason: error.description, attempt: attempt, at: now)
            return EventPlan(
                event: nil, attempt: attempt, receivedAt: receivedAt, sends: [], outcomes: [outcome],
                deadLetterReason: error.description)
        }

        var plan = EventPlan(event: event, attempt: attempt, receivedAt: receivedAt, sends: [], outcomes: [])
        for invalid in event.invalidTargets {
            plan.outcomes.append(
                OutcomeBuilder.outcome(
                    for: invalid, event: event, app: app(of: invalid, in: event, incoming), attempt: attempt, at: now))
        }
        self.plan(
            event.targets, of: event, incoming, excluded: event.excluded(providers: providers), at: now, into: &plan)
        for channel in event.channels {
            func failed(_ reason: String) {
                var outcome = Outcome(
                    status: .failed, eventID: event.id, app: event.app, reason: reason, attempt: attempt, at: now,
                    context: event.context.map { .object($0) })
                outcome.channel = channel.channel
                plan.outcomes.append(outcome)
            }
            guard let app = event.app else {
                failed(
                    "no app: a channel target is expanded among the devices of the event's app, and the event names none"
                )
                continue
            }
            guard apps[app] != nil else {
                failed("unknown app '\(app)'" + Suggestions.didYouMean(app, among: apps.keys.sorted()))
                continue
            }
            // Rejected, but not dead-lettered: a dead letter carries device
            // targets only, and the whole body would bring back the others on a replay.
            if let problem = publisherProblem(incoming, app: app) {
                var outcome = Outcome(
                    status: .rejected, eventID: event.id, app: app, reason: problem, attempt: attempt, at: now,
                    context: event.context.map { .object($0) })
                outcome.channel = channel.channel
                plan.outcomes.append(outcome)
                continue
            }
            plan.expansions.append(EventPlan.Expansion(target: channel, app: app))
        }
        return plan
    }

    /// Plans `targets` of `event` into `plan`: each is dropped (excluded, or
    /// by a route), rejected (no app, an unknown app, no credentials for its
    /// provider), expired, or becomes a send. Used for the event's own
    /// targets and for the devices a channel target expands to.
    public func plan(
        _ targets: some Sequence<Target>, of event: Event, _ incoming: IncomingEvent, excluded: ExcludedTokens,
        at now: Timestamp, into plan: inout EventPlan
    ) {
        let attempt = plan.attempt
        let receivedAt = plan.receivedAt
        for target in targets {
            func outcome(_ status: Outcome.Status, _ reason: String, app: String? = event.app) -> Outcome {
                var o = Outcome(status, event: event, target: target, attempt: attempt, at: now)
                o.app = app
                o.reason = reason
                return o
            }
            func reject(_ reason: String, app: String?) {
                plan.deadLetterReason = plan.deadLetterReason.map { $0 + "; " + reason } ?? reason
                plan.deadLetterTargets.append(target)
                plan.outcomes.append(outcome(.rejected, reason, app: app))
            }
            if excluded.contains(target) {
                plan.outcomes.append(outcome(.dropped, "\(target.address.field) is in exclude_tokens"))
                if event.debug {
                    plan.traceRoute(target, decision: nil, result: .excluded, routingKey: incoming.routingKey)
                }
                continue
            }
            let decision = router.route(
                RoutingSubject(
                    event: event, target: target, routingKey: incoming.routingKey,
                    headers: incoming.headers))
            // A debug trace is asked for by the event or by the matching rule (`set: {debug: true}`).
            let debug = event.debug(after: decision)
            if let drop = decision.drop {
                plan.outcomes.append(outcome(.dropped, drop.description, app: decision.app))
                if debug {
                    plan.traceRoute(
                        target, decision: decision, result: .dropped(reason: drop.description),
                        routingKey: incoming.routingKey)
                }
                continue
            }
            func refuse(_ reason: String, app: String?) {
                reject(reason, app: app)
                if debug {
                    plan.traceRoute(
                        target, decision: decision, result: .rejected(reason: reason), routingKey: incoming.routingKey)
                }
            }
            guard let app = decision.app else {
                refuse("no app: the event names none and no route chose one", app: nil)
                continue
            }
            guard let providers = apps[app] else {
                refuse("unknown app '\(app)'" + Suggestions.didYouMean(app, among: apps.keys.sorted()), app: app)
                continue
            }
            if let problem = publisherProblem(incoming, app: app) {
                refuse(problem, app: app)
                continue
            }
            guard providers.contains(target.provider) else {
                refuse("app '\(app)' has no \(target.provider) credentials", app: app)
                continue
            }
            var routed = event.applying(decision)
            // Expiry is judged after routing: a route's `set: {ttl: ...}` counts.
            if routed.isExpired(at: now, receivedAt: receivedAt) {
                plan.outcomes.append(outcome(.expired, "past its ttl before it could be sent", app: app))
                if debug {
                    plan.traceRoute(target, decision: decision, result: .expired, routingKey: incoming.routingKey)
                }
                continue
            }
            // Providers see an absolute expiry counted from the first receipt, so a retry
            // never extends `ttl` (apns-expiration, FCM ttl). `ttl: 0` keeps its "now or never".
            if case .ttl(let seconds)? = routed.expiry, seconds > 0 {
                routed.expiry = .at(receivedAt + .seconds(seconds))
            }
            var traced = false
            if debug {
                plan.traceRoute(target, decision: decision, result: .send, routingKey: incoming.routingKey)
                traced = plan.routeTrace?.traceNextSend() ?? false
            }
            plan.sends.append(
                EventPlan.Send(target: target, event: routed, app: app, rule: decision.rule, traced: traced))
        }
    }

    /// What would keep `body` from being delivered as written, checked exactly
    /// as `herald run` plans it (decoding, each target, routing, apps and their
    /// credentials) but without sending: one message per problem, none when
    /// the event is good. Dropped and expired targets are not problems.
    /// `herald publish` refuses an input with any.
    /// `userID` is the AMQP user the event will be published as.
    public func problems(in body: [UInt8], routingKey: String, userID: String? = nil, now: Timestamp = .now())
        -> [String]
    {
        let plan = plan(
            IncomingEvent(body: body, routingKey: routingKey, userID: userID), now: now, newID: { "herald-publish" })
        var seen = Set<String>()
        return plan.outcomes.compactMap { outcome -> String? in
            switch outcome.status {
            case .rejected, .failed, .invalidToken:
                let message = outcome.detail ?? outcome.reason ?? outcome.status.rawValue
                return seen.insert(message).inserted ? message : nil
            case .delivered, .retrying, .expired, .dropped:
                return nil
            }
        }
    }

    /// The app an invalid target's outcome names: the one routing would
    /// choose for it when its provider and address can be read, else the event's.
    private func app(of invalid: InvalidTarget, in event: Event, _ incoming: IncomingEvent) -> String? {
        guard let provider = invalid.provider, let address = invalid.address else { return event.app }
        let decision = router.route(
            RoutingSubject(
                event: event, target: Target(provider: provider, address: address),
                routingKey: incoming.routingKey, headers: incoming.headers))
        return decision.app ?? event.app
    }
}

extension EventPlan {
    /// Adds `target`'s routing to the plan's route trace, starting one if it has none yet.
    mutating func traceRoute(_ target: Target, decision: RouteDecision?, result: RouteTrace.Result, routingKey: String)
    {
        if routeTrace == nil { routeTrace = RouteTrace(routingKey: routingKey) }
        routeTrace?.add(target, decision: decision, result: result)
    }
}
