import HeraldCore

/// The simulated FCM as `herald simulate` registers it: the `fcm:` section,
/// its flags, Google's OAuth endpoint and `messages:send` (served once a
/// service account is given) and its tokens in the admin API.
extension SimulatorSettings.FCM: SimulatedProvider {
    public static let sectionKey = "fcm"
    public static var defaultSection: Self { Self() }
    /// `oauth` is its token endpoint: faults reach it only when named.
    public static let serviceNames = ["fcm", "oauth"]
    public static let defaultFaultServices = ["fcm"]

    public static let flags: [SimulatorFlag] = [
        SimulatorFlag(
            "fcm-service-account", "FILE", "accept OAuth assertions signed by this key (comma-separated list)"),
        SimulatorFlag("fcm-project", "ID", "serve this project (default: the accounts' project_id)"),
        SimulatorFlag("fcm-dead-token", "TOKEN", "answer 404 UNREGISTERED for it (comma-separated list)"),
        SimulatorFlag(
            "fcm-token-error", "T=CODE", "answer token T with an FcmError code: UNREGISTERED, INVALID_ARGUMENT,",
            "SENDER_ID_MISMATCH, QUOTA_EXCEEDED, UNAVAILABLE, INTERNAL,",
            "THIRD_PARTY_AUTH_ERROR (comma-separated list)"),
        SimulatorFlag("probe-topic", "TOPIC", "FCM messages to it are probes (default herald-check)"),
        SimulatorFlag(
            "fcm-quota", "N/DURATION", "at most N messages per DURATION for each FCM project, e.g. 600000/1m",
            "(429 QUOTA_EXCEEDED until the project's window ends)"),
    ]

    public mutating func apply(_ flags: SimulatorFlagValues) throws(SimulatorFlagError) {
        if let files = flags.list("fcm-service-account") { serviceAccounts += files }
        if let projects = flags.list("fcm-project") { self.projects += projects }
        if let tokens = flags.list("fcm-dead-token") { deadTokens += tokens }
        for pair in flags.list("fcm-token-error") ?? [] { try addTokenError(pair) }
        if let topic = flags["probe-topic"] { probeTopic = topic }
        if let quota = try flags.limit("fcm-quota") { self.quota = quota }
    }

    /// `TOKEN=CODE` (`--fcm-token-error`): FCM answers TOKEN with the FcmError CODE.
    private mutating func addTokenError(_ pair: String) throws(SimulatorFlagError) {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else {
            throw SimulatorFlagError(
                "--fcm-token-error: expected TOKEN=CODE such as tok-1=SENDER_ID_MISMATCH, found '\(pair)'")
        }
        guard let code = FCMSimulatedErrorCode(rawValue: String(parts[1])) else {
            throw SimulatorFlagError(
                "--fcm-token-error: expected one of \(FCMSimulatedErrorCode.allNames) after '=', found '\(parts[1])'")
        }
        tokenErrors[String(parts[0])] = code
    }

    public func makeServices(recorder: NotificationRecorder, now: Timestamp) throws(SimulatorSetupError)
        -> [any SimulatorService]
    {
        guard let (oauth, messages) = try fcmServices(recorder: recorder) else { return [] }
        return [oauth, messages]
    }

    public func started(_ services: [any SimulatorService], origin: String, say: (String) -> Void) {
        if let fcm = services.lazy.compactMap({ $0 as? FCMSimulatorService }).first {
            say("  FCM: OAuth at /token, projects \(fcm.settings.projectIDs.sorted().joined(separator: ", "))")
        } else {
            say("  no --fcm-service-account: FCM and its OAuth endpoint are off")
        }
    }

    public static var adminRoutes: SimulatorAdminRoutes {
        SimulatorAdminRoutes(
            tokens: .init(provider: sectionKey, table: FCMSimulatorAdmin.table, change: FCMSimulatorAdmin.change))
    }
}
