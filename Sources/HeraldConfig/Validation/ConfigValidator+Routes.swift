import HeraldCore
import HeraldProviderKit

extension ConfigValidator {
    static let pushTypeNames = PushType.allCases.map(\.rawValue)
    static let priorityNames = Priority.allCases.map(\.rawValue)

    /// Validates `routes:` and builds the router from it; nil when any route has an error.
    func routingRules(_ config: Configuration, into issues: inout [ConfigIssue]) -> Router? {
        let before = issues.filter { $0.severity == .error }.count
        var rules: [RoutingRule] = []
        var seen: [String: Int] = [:]
        var catchAll: String?
        for (index, route) in config.routes.enumerated() {
            let path = ConfigPath.root.key("routes").index(index)
            if route.name.isEmpty {
                issues.append(
                    .init(
                        .error, at: path.key("name"), "a route needs a non-empty name (it appears in logs and metrics)")
                )
            } else if let first = seen[route.name] {
                issues.append(
                    .init(
                        .error, at: path.key("name"),
                        "route name '\(route.name.truncatedForMessage)' is already used by routes[\(first)]"))
            } else {
                seen[route.name] = index
            }
            if let earlier = catchAll {
                issues.append(
                    .init(
                        .warning, at: path,
                        "route '\(route.name.truncatedForMessage)' can never match: route '\(earlier.truncatedForMessage)' before it matches everything"
                    ))
            }
            let match = routeMatch(route.match, at: path.key("match"), into: &issues)
            if match == RouteMatch() && catchAll == nil { catchAll = route.name }
            if let app = route.app, config.apps[app] == nil {
                issues.append(
                    .init(
                        .error, at: path.key("app"),
                        "unknown app '\(app.truncatedForMessage)'\(Suggestions.didYouMean(app, among: config.apps.keys))"
                            + " (apps: \(config.apps.keys.sorted().joined(separator: ", ")))"))
            }
            if route.drop?.reason != nil && route.app != nil {
                issues.append(
                    .init(
                        .warning, at: path.key("app"),
                        "route '\(route.name.truncatedForMessage)' drops, so its app is never used"))
            }
            if let rate = route.rate {
                checkRate(rate, of: route, at: path.key("rate"), into: &issues)
            }
            var providers: Set<Provider>?
            if let names = route.providers {
                providers = []
                for (i, name) in names.enumerated() {
                    if let provider = catalog.provider(named: name) {
                        providers?.insert(provider)
                    } else {
                        issues.append(.init(.error, at: path.key("providers").index(i), unknownProvider(name)))
                    }
                }
                if names.isEmpty {
                    issues.append(
                        .init(
                            .error, at: path.key("providers"),
                            "an empty providers list drops everything; use drop: instead"))
                }
            }
            rules.append(
                RoutingRule(
                    name: route.name, match: match, app: route.app,
                    set: overrides(route.set, at: path.key("set"), into: &issues),
                    defaults: overrides(route.defaults, at: path.key("defaults"), into: &issues),
                    drop: route.drop?.reason, providers: providers))
        }
        let after = issues.filter { $0.severity == .error }.count
        return after == before ? Router(rules: rules) : nil
    }

    /// A route's `rate:`: one rate within `RateBounds`, a burst of at least 1.
    func checkRate(_ rate: RateSettings, of route: RouteSettings, at path: ConfigPath, into issues: inout [ConfigIssue])
    {
        switch (rate.perSecond, rate.perMinute) {
        case (nil, nil):
            issues.append(.init(.error, at: path, "give per_second or per_minute"))
        case (.some, .some):
            issues.append(.init(.error, at: path, "give one of per_second and per_minute, not both"))
        case (let value?, nil), (nil, let value?):
            let (key, unit): (String, RateBounds.Unit) =
                rate.perSecond != nil ? ("per_second", .second) : ("per_minute", .minute)
            if !(value > 0) {
                issues.append(
                    .init(.error, at: path.key(key), "a rate must be above 0 (a route that sends nothing is drop:)"))
            } else if let problem = RateBounds.problem(value, in: unit) {
                issues.append(.init(.error, at: path.key(key), problem))
            }
        }
        if rate.burst < 1 {
            issues.append(.init(.error, at: path.key("burst"), "a burst must be at least 1, found \(rate.burst)"))
        }
        if route.drop?.reason != nil {
            issues.append(
                .init(.warning, at: path, "route '\(route.name.truncatedForMessage)' drops, so its rate is never used"))
        }
    }

    func unknownProvider(_ name: String) -> String {
        "unknown provider '\(name.truncatedForMessage)'\(Suggestions.didYouMean(name, among: catalog.acceptedNames)) (expected \(EventError.list(catalog.acceptedNames)))"
    }

    func routeMatch(_ settings: MatchSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) -> RouteMatch {
        var match = RouteMatch()
        match.routingKeys = (settings.routingKey?.values ?? []).map(TopicPattern.init)
        match.headers = settings.headers.mapValues(\.values)
        for test in settings.fields {
            let fieldPath = path.key(test.name)
            guard let field = RouteField(name: test.name) else {
                let known = ["routing_key", "headers"] + RouteField.names
                issues.append(
                    .init(
                        .error, at: fieldPath,
                        "unknown match key '\(test.name.truncatedForMessage)'\(Suggestions.didYouMean(test.name, among: known))"
                            + " (expected one of: \(known.joined(separator: ", ")))"))
                continue
            }
            var values = test.values
            switch field {
            case .provider:
                values = []
                for value in test.values {
                    if let provider = catalog.provider(named: value) {
                        values.append(provider.rawValue)
                    } else {
                        issues.append(.init(.error, at: fieldPath, unknownProvider(value)))
                    }
                }
            case .pushType:
                for value in test.values where PushType(rawValue: value) == nil {
                    issues.append(.init(.error, at: fieldPath, unknownPushType(value)))
                }
            case .priority:
                for value in test.values where Priority(rawValue: value) == nil {
                    issues.append(.init(.error, at: fieldPath, unknownPriority(value)))
                }
            case .app, .data:
                break
            }
            match.fields[field] = values
        }
        return match
    }

    func unknownPushType(_ value: String) -> String {
        "unknown push type '\(value.truncatedForMessage)'\(Suggestions.didYouMean(value, among: Self.pushTypeNames))"
            + " (expected one of: \(Self.pushTypeNames.joined(separator: ", ")))"
    }

    func unknownPriority(_ value: String) -> String {
        "unknown priority '\(value.truncatedForMessage)'\(Suggestions.didYouMean(value, among: Self.priorityNames))"
            + " (expected one of: \(Self.priorityNames.joined(separator: ", ")))"
    }

    func overrides(_ settings: OverrideSettings?, at path: ConfigPath, into issues: inout [ConfigIssue])
        -> EventOverrides
    {
        guard let s = settings else { return EventOverrides() }
        let priority = s.priority.flatMap(Priority.init(rawValue:))
        if let name = s.priority, priority == nil {
            issues.append(.init(.error, at: path.key("priority"), unknownPriority(name)))
        }
        let pushType = s.pushType.flatMap(PushType.init(rawValue:))
        if let name = s.pushType, pushType == nil {
            issues.append(.init(.error, at: path.key("push_type"), unknownPushType(name)))
        }
        if let ttl = s.ttl, ttl < 0 {
            issues.append(.init(.error, at: path.key("ttl"), "expected seconds ≥ 0, found \(ttl)"))
        }
        if let id = s.collapseID {
            for registration in providers {
                if let problem = registration.settings.routeOverrideProblem(field: "collapse_id", value: id) {
                    issues.append(.init(.error, at: path.key("collapse_id"), problem))
                }
            }
        }
        return EventOverrides(
            priority: priority, ttl: s.ttl, pushType: pushType, collapseID: s.collapseID,
            sound: s.sound, contentAvailable: s.contentAvailable, mutableContent: s.mutableContent,
            debug: s.debug)
    }
}
