import HeraldCore
import HeraldProviderKit

extension ConfigValidator {
    func validateRetry(_ retry: RetrySettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        checks.checkRange(retry.maxAttempts, 1...100, at: path.key("max_attempts"), into: &issues)
        if retry.delays.isEmpty && retry.maxAttempts > 1 {
            issues.append(.init(.error, at: path.key("delays"), "no delays: give at least one, e.g. [5s, 30s, 2m]"))
        }
        for (i, delay) in retry.delays.enumerated() where delay.milliseconds < 100 {
            issues.append(
                .init(.error, at: path.key("delays").index(i), "a retry delay must be at least 100ms, found \(delay)"))
        }
        if retry.delays.count > retry.maxAttempts - 1 && retry.maxAttempts > 0 && !retry.delays.isEmpty {
            issues.append(
                .init(
                    .warning, at: path.key("delays"),
                    "\(retry.delays.count) delays but only \(max(0, retry.maxAttempts - 1)) retries (max_attempts \(retry.maxAttempts)); the extra delays are never used"
                ))
        }
    }

    func validateRegistry(_ registry: RegistrySettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        let misplaced: [(String, Bool)]
        switch registry.backend {
        case .sqlite:
            if registry.path?.isEmpty ?? true {
                issues.append(
                    .init(
                        .error, at: path.key("path"), "backend sqlite needs the database file: path: herald-registry.db"
                    ))
            }
            misplaced = [("url", registry.url != nil), ("pool", registry.pool != nil)]
        case .postgres:
            if let url = registry.url {
                validatePostgresURL(url, at: path.key("url"), into: &issues)
            } else {
                issues.append(
                    .init(
                        .error, at: path.key("url"),
                        "backend postgres needs the server: url: postgres://herald:${HERALD_DB_PASSWORD}@db:5432/herald"
                    ))
            }
            if let pool = registry.pool { checks.checkRange(pool, 1...64, at: path.key("pool"), into: &issues) }
            misplaced = [("path", registry.path != nil)]
        }
        for (key, present) in misplaced where present {
            issues.append(
                .init(.error, at: path.key(key), "'\(key)' does not apply to backend \(registry.backend.rawValue)"))
        }
        checks.checkRange(
            registry.maxRegistrationsPerApp, 1...RegistrySettings.maxLimit, at: path.key("max_registrations_per_app"),
            into: &issues)
        checks.checkRange(
            registry.maxDevicesPerChannel, 1...RegistrySettings.maxLimit, at: path.key("max_devices_per_channel"),
            into: &issues)
        if let expireAfter = registry.expireAfter, expireAfter < RegistrySettings.minExpireAfter {
            issues.append(
                .init(
                    .error, at: path.key("expire_after"),
                    "must be at least \(RegistrySettings.minExpireAfter), found \(expireAfter); "
                        + "leave it out to keep devices until they are unregistered (e.g. 270d retires those not seen for 270 days)"
                ))
        }
        if registry.encryptionKey != nil, registry.encryptionKeyFile != nil {
            issues.append(
                .init(
                    .error, at: path.key("encryption_key"),
                    "give encryption_key or encryption_key_file, not both"))
        }
        // The value is a secret: the message says what is wrong with it, never what it is.
        if let key = registry.encryptionKey {
            let urlSafe = String(key.filter { !$0.isWhitespace }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            let size = Base64URL.decode(urlSafe)?.count
            if size != RegistrySettings.encryptionKeyBytes {
                issues.append(
                    .init(
                        .error, at: path.key("encryption_key"),
                        "expected base64 of \(RegistrySettings.encryptionKeyBytes) bytes (\(size.map { "found \($0) bytes" } ?? "not base64")); "
                            + "make one with: openssl rand -base64 32"))
            }
        }
    }

    /// `registry.url`: a URL libpq can read (`PostgresURL`), and a warning
    /// when a server that is not on this machine is reached without
    /// `sslmode=verify-full` (the certificate and its name checked). No
    /// message shows the password.
    func validatePostgresURL(_ url: String, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            issues.append(
                .init(
                    .error, at: path,
                    "expected a postgres:// or postgresql:// URL, found '\(URLSecrets.redacted(url).truncatedForMessage)'"
                ))
            return
        }
        let shown = URLSecrets.redacted(String(url.prefix { $0 != "?" })).truncatedForMessage
        let parsed: PostgresURL
        do {
            parsed = try PostgresURL(parsing: url)
        } catch {
            issues.append(.init(.error, at: path, "'\(shown)' cannot be used: \(error)"))
            return
        }
        guard let remote = parsed.hosts.first(where: { !Self.isLocalPostgresHost($0) }) else { return }
        let weakness: String? =
            switch parsed.sslMode {
            case nil:
                "gives no sslmode, so libpq's default, prefer, sends in clear text to a server without TLS and checks no certificate"
            case "disable", "allow", "prefer":
                "has sslmode=\(parsed.sslMode ?? ""), which may send in clear text and checks no certificate"
            case "require": "has sslmode=require, which encrypts but checks no certificate"
            case "verify-ca":
                "has sslmode=verify-ca, which checks the certificate's CA but not that it names the server"
            default: nil
            }
        if let weakness {
            issues.append(
                .init(
                    .warning, at: path,
                    "'\(shown)' \(weakness) ('\(remote.truncatedForMessage)' is not on this machine); give sslmode=verify-full&sslrootcert=<CA file> (docs/registry.md)"
                ))
        }
    }

    /// Loopback addresses and Unix sockets (an empty host, a directory, an
    /// abstract socket): a connection that never leaves the machine.
    static func isLocalPostgresHost(_ host: String) -> Bool {
        host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || host == "localhost" || host == "::1"
            || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
                && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    func validateOutcomes(_ outcomes: OutcomeSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        var seen = Set<String>()
        for (i, status) in outcomes.publish.enumerated() {
            if !OutcomeSettings.allStatuses.contains(status) {
                issues.append(
                    .init(
                        .error, at: path.key("publish").index(i),
                        "unknown outcome status '\(status.truncatedForMessage)'\(Suggestions.didYouMean(status, among: OutcomeSettings.allStatuses))"
                            + " (expected one of: \(OutcomeSettings.allStatuses.joined(separator: ", ")))"))
            } else if !seen.insert(status).inserted {
                issues.append(
                    .init(.warning, at: path.key("publish").index(i), "'\(status.truncatedForMessage)' is listed twice")
                )
            }
        }
        let guardPath = path.key("invalidation_guard")
        checks.checkRange(
            outcomes.invalidationGuard.minAnswers, 1...1_000_000, at: guardPath.key("min_answers"), into: &issues)
        let share = outcomes.invalidationGuard.share
        if !(share > 0 && share <= 1) {
            issues.append(
                .init(
                    .error, at: guardPath.key("share"),
                    "expected a share over 0 and at most 1 (0.5 is half), found \(share)"))
        }
        let window = outcomes.invalidationGuard.window
        if window.milliseconds < 100 || window.milliseconds > 86_400_000 {
            issues.append(.init(.error, at: guardPath.key("window"), "expected 100ms to 24h, found \(window)"))
        }
        if !outcomes.publish.contains("invalid_token") {
            issues.append(
                .init(
                    .warning, at: path.key("publish"),
                    "invalid_token outcomes are not published, so upstream never learns which tokens are dead"))
        }
    }
}
