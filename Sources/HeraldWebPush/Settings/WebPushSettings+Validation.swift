import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit

extension WebPushSettings {
    /// The shape of a `webpush:` section. That the key is P-256 and the
    /// subject one a push service accepts is proven where the key is loaded
    /// (`herald check` lists it, `herald run` refuses to start).
    public func validate(at path: ConfigPath, with checks: ConfigChecks, into issues: inout [ConfigIssue]) {
        let vapidPath = path.key("vapid")
        let sources = [
            ("private_key_file", vapid.privateKeyFile), ("private_key_pem", vapid.privateKeyPEM),
            ("private_key", vapid.privateKey),
        ].filter { $0.1 != nil }
        if sources.count != 1 {
            issues.append(
                .init(
                    .error, at: vapidPath,
                    "give exactly one of private_key_file, private_key_pem or private_key; found "
                        + (sources.isEmpty ? "none" : sources.map(\.0).joined(separator: " and "))))
        }
        if let file = vapid.privateKeyFile {
            checks.readFile(
                file, at: vapidPath.key("private_key_file"), what: "VAPID key file", limit: .key, secret: true,
                into: &issues)
        }
        if let pem = vapid.privateKeyPEM {
            checks.checkPrivateKeyPEM(
                pem, what: "a P-256 VAPID key", at: vapidPath.key("private_key_pem"), into: &issues)
        }
        if let key = vapid.privateKey, Base64URL.decode(key)?.count != 32 {
            issues.append(
                .init(
                    .error, at: vapidPath.key("private_key"),
                    "expected the 32-byte P-256 private key in URL-safe base64 (43 characters)"))
        }
        if vapid.subject.isEmpty {
            issues.append(
                .init(
                    .error, at: vapidPath.key("subject"), "expected a contact: mailto:name@example.com or an https: URL"
                ))
        }
        checks.checkCAFile(caFile, at: path.key("ca_file"), into: &issues)
        checks.checkConnections(connections, at: path.key("connections"), into: &issues)
        checks.checkRequestTimeout(timeout, at: path.key("timeout"), into: &issues)
        if let hosts = allowedHosts {
            if hosts.isEmpty {
                issues.append(
                    .init(
                        .error, at: path.key("allowed_hosts"),
                        "is empty, so no subscription could be sent to; list push service hosts, or [\"*\"] for any public host"
                    ))
            }
            for (index, host) in hosts.enumerated() {
                if let problem = AllowedHosts.problem(with: host) {
                    issues.append(
                        .init(.error, at: path.key("allowed_hosts").index(index), "\(JSONText.quoted(host)) \(problem)")
                    )
                }
            }
        }
        if defaultTTL.milliseconds < 0 {
            issues.append(.init(.error, at: path.key("default_ttl"), "a TTL cannot be negative"))
        }
    }
}
