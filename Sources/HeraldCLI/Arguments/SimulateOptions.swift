import HeraldConfig
import HeraldSimulator

/// Lays `herald simulate` flags over the settings from `--config`.
enum SimulateOptions {
    static func apply(_ options: [String: String], to base: SimulatorSettings) throws(UsageError) -> SimulatorSettings {
        var settings = base
        if let listen = options["listen"] { settings.listen = listen }
        if let record = options["record"] { settings.record = record }
        var tls = settings.tls ?? SimulatorSettings.TLS()
        if let value = options["tls-dir"] { tls.directory = value }
        if let value = options["tls-cert"] { tls.certificate = value }
        if let value = options["tls-key"] { tls.key = value }
        if let value = options["client-ca"] { tls.clientCA = value }
        settings.tls = tls

        var apns = settings.apns ?? SimulatorSettings.APNs()
        if let keyFile = options["apns-key"] {
            guard let keyID = options["key-id"], let teamID = options["team-id"] else {
                throw UsageError("--apns-key needs --key-id and --team-id")
            }
            apns.keys.append(SimulatorSettings.Key(keyFile: keyFile, keyID: keyID, teamID: teamID))
        }
        if let topics = options["topic"] { apns.topics += list(topics) }
        if let tokens = options["dead-token"] { apns.deadTokens += list(tokens).map { SimulatorSettings.DeadToken(token: $0) } }
        if let value = options["token-update-interval"] { apns.tokenUpdateInterval = try duration(value, "token-update-interval") }
        if let value = options["per-token-limit"] {
            apns.perTokenLimit = SimulatorFaults.RateLimit(requests: try positive(value, "per-token-limit"))
        }
        settings.apns = apns

        var fcm = settings.fcm ?? SimulatorSettings.FCM()
        if let files = options["fcm-service-account"] { fcm.serviceAccounts += list(files) }
        if let projects = options["fcm-project"] { fcm.projects += list(projects) }
        if let tokens = options["fcm-dead-token"] { fcm.deadTokens += list(tokens) }
        if let pairs = options["fcm-token-error"] {
            for pair in list(pairs) { try addTokenError(pair, to: &fcm) }
        }
        if let topic = options["probe-topic"] { fcm.probeTopic = topic }
        if let value = options["fcm-quota"] { fcm.quota = try limit(value, "fcm-quota") }
        settings.fcm = fcm

        if let value = options["webpush-subscriptions"] {
            var webpush = settings.webpush ?? SimulatorSettings.WebPush()
            webpush.subscriptions = try positive(value, "webpush-subscriptions")
            settings.webpush = webpush
        }

        var faults = settings.faults ?? .none
        if let value = options["error-rate"] { faults.errorRate = try fraction(value, "error-rate") }
        if let value = options["error-status"] {
            guard let status = Int(value), SimulatorFaults.errorStatuses.contains(status) else {
                throw UsageError("--error-status: expected 429, 500 or 503, found '\(value)'")
            }
            faults.errorStatus = status
        }
        if let value = options["reset-rate"] { faults.resetRate = try fraction(value, "reset-rate") }
        if let value = options["drop-rate"] { faults.dropRate = try fraction(value, "drop-rate") }
        if let value = options["hang-rate"] { faults.hangRate = try fraction(value, "hang-rate") }
        if let value = options["fault-services"] { faults.services = list(value) }
        if let value = options["fault-tokens"] { faults.tokens = list(value) }
        if let value = options["latency"] { faults.latency = try duration(value, "latency") }
        if let value = options["goaway-after"] { faults.goAwayAfterStreams = try positive(value, "goaway-after") }
        if let value = options["max-streams"] { faults.maxStreams = try positive(value, "max-streams") }
        if let value = options["rate-limit"] { faults.rateLimit = SimulatorFaults.RateLimit(requests: try positive(value, "rate-limit")) }
        if let problem = faults.problem { throw UsageError("faults: \(problem)") }
        settings.faults = faults
        return settings
    }

    /// `TOKEN=CODE` (`--fcm-token-error`): FCM answers TOKEN with the FcmError CODE.
    private static func addTokenError(_ pair: String, to fcm: inout SimulatorSettings.FCM) throws(UsageError) {
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else {
            throw UsageError("--fcm-token-error: expected TOKEN=CODE such as tok-1=SENDER_ID_MISMATCH, found '\(pair)'")
        }
        guard let code = FCMSimulatedErrorCode(rawValue: String(parts[1])) else {
            throw UsageError("--fcm-token-error: expected one of \(FCMSimulatedErrorCode.allNames) after '=', found '\(parts[1])'")
        }
        fcm.tokenErrors[String(parts[0])] = code
    }

    private static func fraction(_ text: String, _ option: String) throws(UsageError) -> Double {
        guard let rate = Double(text), (0...1).contains(rate) else {
            throw UsageError("--\(option): expected a fraction from 0 to 1, found '\(text)'")
        }
        return rate
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
    }

    private static func duration(_ text: String, _ option: String) throws(UsageError) -> ConfigDuration {
        guard let value = ConfigDuration(parsing: text) else {
            throw UsageError("--\(option): expected a duration like 500ms, 5s or 20m, found '\(text)'")
        }
        return value
    }

    /// `N/DURATION` (`600000/1m`): at most N per DURATION, both above 0.
    private static func limit(_ text: String, _ option: String) throws(UsageError) -> SimulatorFaults.RateLimit {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let per = ConfigDuration(parsing: String(parts[1])),
            SimulatorFaults.RateLimit(requests: count, per: per).problem == nil
        else {
            throw UsageError("--\(option): expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '\(text)'")
        }
        return SimulatorFaults.RateLimit(requests: count, per: per)
    }

    private static func positive(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let value = Int(text), value > 0 else { throw UsageError("--\(option): expected a positive number, found '\(text)'") }
        return value
    }
}
