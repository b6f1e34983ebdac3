import HeraldCore

/// The simulated APNs as `herald simulate` registers it: the `apns:`
/// section, its flags, the APNs service (always served) and its tokens in
/// the admin API.
extension SimulatorSettings.APNs: SimulatedProvider {
    public static let sectionKey = "apns"
    public static var defaultSection: Self { Self() }
    public static let serviceNames = ["apns"]

    public static let flags: [SimulatorFlag] = [
        SimulatorFlag("apns-key", "FILE", "public key or .p8 provider tokens are verified with"),
        SimulatorFlag(
            "--key-id ID, --team-id ID", names: ["key-id", "team-id"], help: ["the key id and team id tokens must name"]
        ),
        SimulatorFlag("topic", "BUNDLE_ID", "accept only this bundle id (comma-separated list)"),
        SimulatorFlag("dead-token", "TOKEN", "answer 410 Unregistered for it (comma-separated list)"),
        SimulatorFlag(
            "token-update-interval", "D", "refuse a team's new token sooner than this (429; Apple: 20m; default off)"),
        SimulatorFlag("per-token-limit", "N", "at most N notifications per device token per second (429)"),
    ]

    public mutating func apply(_ flags: SimulatorFlagValues) throws(SimulatorFlagError) {
        if let keyFile = flags["apns-key"] {
            guard let keyID = flags["key-id"], let teamID = flags["team-id"] else {
                throw SimulatorFlagError("--apns-key needs --key-id and --team-id")
            }
            keys.append(Key(keyFile: keyFile, keyID: keyID, teamID: teamID))
        }
        if let topics = flags.list("topic") { self.topics += topics }
        if let tokens = flags.list("dead-token") { deadTokens += tokens.map { DeadToken(token: $0) } }
        if let interval = try flags.duration("token-update-interval") { tokenUpdateInterval = interval }
        if let requests = try flags.positive("per-token-limit") {
            perTokenLimit = SimulatorFaults.RateLimit(requests: requests)
        }
    }

    public func makeServices(recorder: NotificationRecorder, now: Timestamp) throws(SimulatorSetupError)
        -> [any SimulatorService]
    {
        [APNsSimulatorService(configuration: try configuration(now: now), recorder: recorder)]
    }

    public func started(_ services: [any SimulatorService], origin: String, say: (String) -> Void) {
        let apns = services.lazy.compactMap { $0 as? APNsSimulatorService }.first
        if apns?.configuration.keys.isEmpty ?? keys.isEmpty {
            say("  no --apns-key: provider tokens are refused; only client certificates can authenticate")
        }
    }

    public static var adminRoutes: SimulatorAdminRoutes {
        SimulatorAdminRoutes(
            tokens: .init(provider: sectionKey, table: APNsSimulatorAdmin.table, change: APNsSimulatorAdmin.change))
    }
}
