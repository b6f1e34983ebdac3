import HeraldCore
import HeraldCoreTestSupport
import Testing

@Suite struct RouterTests {
    static let rules: [RoutingRule] = [
        RoutingRule(name: "no-sms", match: RouteMatch(headers: ["x-channel": ["sms"]]), drop: "sms is not push"),
        RoutingRule(
            name: "quiet-marketing", match: RouteMatch(routingKeys: [TopicPattern("marketing.#")]),
            set: EventOverrides(priority: .normal, ttl: 86400)),
        RoutingRule(
            name: "android-only-promos", match: RouteMatch(fields: [.data("kind"): ["promo"]]),
            providers: [.fcm]),
        RoutingRule(
            name: "voip", match: RouteMatch(fields: [.pushType: ["voip"], .provider: ["apns"]]), app: "chat-voip"),
        RoutingRule(
            name: "legacy-app", match: RouteMatch(fields: [.app: ["chat-old", "chat-legacy"]]), app: "chat",
            defaults: EventOverrides(sound: "default")),
        RoutingRule(name: "default", app: "chat"),
    ]

    func route(
        _ key: String, headers: [String: String] = [:], app: String? = nil, provider: Provider = .apns,
        pushType: PushType? = nil, data: [String: String] = [:]
    ) -> RouteDecision {
        Router(rules: Self.rules).route(
            RoutingSubject(
                routingKey: key, headers: headers, app: app, provider: provider, pushType: pushType,
                data: { data[$0] }))
    }

    @Test func firstMatchingRuleWins() {
        let d = route("marketing.weekly", headers: ["x-channel": "sms"])
        #expect(d.rule == "no-sms")
        #expect(d.drop == .rule(name: "no-sms", reason: "sms is not push"))
        #expect(d.drop?.description == "dropped by route 'no-sms': sms is not push")
    }

    /// A rule's `set: {debug: true}` turns the trace on, `set: {debug: false}`
    /// off, `defaults: {debug: true}` only adds it; `debug(after:)` agrees with `applying`.
    @Test func aRouteTurnsTheDebugTraceOnOrOff() {
        let plain = Event(id: "e", targets: [Target(provider: .fcm, address: .token("t"))])
        var asked = plain
        asked.debug = true
        let on = RouteDecision(app: "chat", set: EventOverrides(debug: true))
        let off = RouteDecision(app: "chat", set: EventOverrides(debug: false))
        let byDefault = RouteDecision(app: "chat", defaults: EventOverrides(debug: true))
        let none = RouteDecision(app: "chat")
        for (event, decision, expected) in [
            (plain, on, true), (asked, off, false), (plain, byDefault, true), (asked, none, true),
            (plain, none, false),
        ] {
            #expect(event.applying(decision).debug == expected)
            #expect(event.debug(after: decision) == expected)
        }
    }

    @Test func setOverridesWithoutChangingTheApp() {
        let d = route("marketing.fr", app: "news")
        #expect(d.rule == "quiet-marketing")
        #expect(d.app == "news")
        #expect(d.set == EventOverrides(priority: .normal, ttl: 86400))
        #expect(d.drop == nil)
    }

    @Test func providersRestrictDropsOtherProviders() {
        let apns = route("chat.promo", provider: .apns, data: ["kind": "promo"])
        #expect(apns.drop == .providerNotAllowed(rule: "android-only-promos", provider: .apns))
        #expect(apns.drop?.description == "provider apns not allowed by route 'android-only-promos'")
        let fcm = route("chat.promo", provider: .fcm, data: ["kind": "promo"])
        #expect(fcm.drop == nil)
        #expect(fcm.rule == "android-only-promos")
    }

    @Test func allConditionsMustHold() {
        #expect(route("chat.call", provider: .apns, pushType: .voip).app == "chat-voip")
        // push_type matches but provider does not: falls through to the default rule
        let d = route("chat.call", provider: .fcm, pushType: .voip)
        #expect(d.rule == "default")
        #expect(d.app == "chat")
    }

    @Test func anyListedValueMatches() {
        let d = route("x", app: "chat-legacy")
        #expect(d.rule == "legacy-app")
        #expect(d.app == "chat")
        #expect(d.defaults.sound == "default")
    }

    @Test func headerMissingDoesNotMatch() {
        #expect(route("x", headers: [:]).rule == "default")
        #expect(route("x", headers: ["x-channel": "push"]).rule == "default")
    }

    @Test func noRuleMatchedKeepsTheEventsApp() {
        let router = Router(rules: [
            RoutingRule(name: "only-marketing", match: RouteMatch(routingKeys: [TopicPattern("marketing.#")]), app: "m")
        ])
        let d = router.route(RoutingSubject(routingKey: "chat.x", app: "chat", provider: .fcm))
        #expect(d == RouteDecision(rule: nil, app: "chat"))
    }

    @Test func emptyRoutingKeyMatchesOnlyHashPatterns() {
        let router = Router(rules: [
            RoutingRule(name: "star", match: RouteMatch(routingKeys: [TopicPattern("*")]), app: "a"),
            RoutingRule(name: "hash", match: RouteMatch(routingKeys: [TopicPattern("#")]), app: "b"),
        ])
        #expect(router.route(RoutingSubject(routingKey: "", provider: .apns)).rule == "hash")
    }

    @Test func routeFieldNamesParse() {
        #expect(RouteField(name: "push_type") == .pushType)
        #expect(RouteField(name: "data.thread_id") == .data("thread_id"))
        #expect(RouteField(name: "data.") == nil)
        #expect(RouteField(name: "pushtype") == nil)
        #expect(RouteField.data("k").description == "data.k")
    }

    @Test func eventTargetsAreRoutedAndOverridesApplied() throws {
        let event = try Event.decode(
            Array(
                """
                {"id": "e1", "app": "news", "targets": [{"provider": "ios", "token": "abcd"}, {"provider": "android", "token": "t2"}],
                 "notification": {"title": "Hi"}, "data": {"kind": "promo", "n": 3, "flag": true}, "ttl": 60}
                """.utf8), fallbackID: "x", providers: .standIns)
        let rules = [
            RoutingRule(
                name: "promo-numbers",
                match: RouteMatch(fields: [.data("n"): ["3"], .data("flag"): ["true"], .provider: ["fcm"]]),
                app: "promos", set: EventOverrides(priority: .normal, ttl: 86400, collapseID: "promo"),
                defaults: EventOverrides(pushType: .voip, sound: "ping")),
            RoutingRule(name: "rest", defaults: EventOverrides(ttl: 5)),
        ]
        let router = Router(rules: rules)
        let fcm = router.route(RoutingSubject(event: event, target: event.targets[1], routingKey: "news.promo"))
        #expect(fcm.rule == "promo-numbers")
        let routed = event.applying(fcm)
        #expect(routed.app == "promos")
        #expect(routed.priority == .normal)
        #expect(routed.expiry == .ttl(seconds: 86400))
        #expect(routed.collapseID == "promo")
        #expect(routed.pushType == .voip)  // the event gave no push_type, so the default fills it
        #expect(routed.notification?.sound?.name == "ping")
        #expect(routed.notification?.title == "Hi")

        let apns = router.route(RoutingSubject(event: event, target: event.targets[0], routingKey: "news.promo"))
        #expect(apns.rule == "rest")
        #expect(event.applying(apns).expiry == .ttl(seconds: 60))  // defaults never replace what the event says
        #expect(event.applying(apns).app == "news")
    }
}
