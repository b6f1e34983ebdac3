import HeraldCore

/// The simulated Web Push push service as `herald simulate` registers it:
/// the `webpush:` section, its flag, the service (always served, given its
/// origin once the server listens) and its subscriptions in the admin API.
extension SimulatorSettings.WebPush: SimulatedProvider {
    public static let sectionKey = "webpush"
    public static var defaultSection: Self { Self() }
    public static let serviceNames = ["webpush"]

    public static let flags: [SimulatorFlag] = [
        SimulatorFlag(
            "webpush-subscriptions", "N", "issue N Web Push subscriptions at start and print each as a JSON line",
            "(endpoint, keys, id, private_key)")
    ]

    public mutating func apply(_ flags: SimulatorFlagValues) throws(SimulatorFlagError) {
        if let count = try flags.positive("webpush-subscriptions") { subscriptions = count }
    }

    public func makeServices(recorder: NotificationRecorder, now: Timestamp) -> [any SimulatorService] {
        [WebPushSimulatorService(recorder: recorder)]
    }

    /// Gives the push service its origin, says where it is and issues
    /// `subscriptions`, each printed as one JSON line (endpoint, keys, id, private_key).
    public func started(_ services: [any SimulatorService], origin: String, say: (String) -> Void) throws {
        guard let webpush = services.lazy.compactMap({ $0 as? WebPushSimulatorService }).first else { return }
        webpush.serve(at: origin)
        say(
            "  Web Push: push service at \(origin)\(WebPushSimulatorService.pushPathPrefix)<id>; "
                + "subscriptions from POST \(origin)\(WebPushSimulatorAdmin.subscriptionsPath)")
        guard subscriptions > 0 else { return }
        say("  Web Push subscriptions, one JSON object per line:")
        for _ in 0..<subscriptions {
            say(try webpush.issueSubscription().jsonValue().jsonString)
        }
    }

    public static var adminRoutes: SimulatorAdminRoutes {
        SimulatorAdminRoutes(endpoints: [
            .init(methods: ["POST"], path: WebPushSimulatorAdmin.subscriptionsPath) {
                admin, _, request throws(AdminError) in
                try WebPushSimulatorAdmin.issueSubscription(admin, body: request.body)
            },
            .init(methods: ["DELETE"], path: WebPushSimulatorAdmin.subscriptionsPath + "/<id>") {
                admin, id, _ throws(AdminError) in
                try WebPushSimulatorAdmin.deleteSubscription(admin, id: id ?? "")
            },
        ])
    }
}
