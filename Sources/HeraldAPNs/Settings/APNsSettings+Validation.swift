import HeraldCore
import HeraldProviderKit

extension APNsSettings {
    /// Apple's Team IDs and Key IDs are 10 upper-case letters and digits.
    public static func isAppleIdentifier(_ s: String) -> Bool {
        s.utf8.count == 10 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    public func validate(at path: ConfigPath, with checks: ConfigChecks, into issues: inout [ConfigIssue]) {
        let modes = [
            ("key_file", keyFile), ("key_pem", keyPEM), ("certificate_file", certificateFile),
            ("certificate_pem", certificatePEM),
        ].filter { $0.1 != nil }.map(\.0)
        if modes.count != 1 {
            let found = modes.isEmpty ? "none" : modes.joined(separator: " and ")
            issues.append(
                .init(
                    .error, at: path,
                    "give exactly one of key_file, key_pem (token auth), certificate_file or certificate_pem (certificate auth); found \(found)"
                ))
        }
        if keyFile != nil || keyPEM != nil {
            for (key, value) in [("team_id", teamID), ("key_id", keyID)] {
                guard let value else {
                    issues.append(
                        .init(
                            .error, at: path.key(key),
                            "token auth needs \(key) (10 characters, from Apple's developer account)"))
                    continue
                }
                if !Self.isAppleIdentifier(value) {
                    issues.append(
                        .init(
                            .error, at: path.key(key),
                            "expected 10 upper-case letters or digits, found '\(value.truncatedForMessage)'"))
                }
            }
        } else if certificateFile != nil || certificatePEM != nil {
            for (key, value) in [("team_id", teamID), ("key_id", keyID)] where value != nil {
                issues.append(
                    .init(
                        .warning, at: path.key(key), "\(key) is only used with token auth; certificate auth ignores it")
                )
            }
        }
        if certificatePassword != nil && certificateFile == nil && certificatePEM == nil {
            issues.append(
                .init(
                    .warning, at: path.key("certificate_password"),
                    "certificate_password is set without certificate_file or certificate_pem"))
        }
        // The text is a secret: the message says what is missing, never what is there.
        if let certificatePEM, !certificatePEM.contains(PEMArmor.begin("CERTIFICATE")) {
            issues.append(
                .init(
                    .error, at: path.key("certificate_pem"),
                    "expected the PEM of the APNs certificate and its key (starting with \(PEMArmor.begin("CERTIFICATE")))"
                ))
        }
        let keyWhat = "the .p8 file from Apple"
        if let keyFile,
            let key = checks.readFile(
                keyFile, at: path.key("key_file"), what: "APNs key file", limit: .key, secret: true, into: &issues)
        {
            checks.checkPrivateKeyPEM(
                String(decoding: key.bytes, as: UTF8.self), what: keyWhat, at: path.key("key_file"), into: &issues)
        }
        if let keyPEM {
            checks.checkPrivateKeyPEM(keyPEM, what: keyWhat, at: path.key("key_pem"), into: &issues)
        }
        if let certificateFile {
            checks.readFile(
                certificateFile, at: path.key("certificate_file"), what: "APNs certificate", limit: .certificate,
                secret: true,
                into: &issues)
        }
        if topic.isEmpty || topic.contains(" ") {
            issues.append(
                .init(
                    .error, at: path.key("topic"),
                    "expected the app's bundle id (e.g. com.example.chat), found '\(topic.truncatedForMessage)'"))
        }
        for (index, allowed) in allowedTopics.enumerated() {
            if let problem = APNsDeviceOverrides.problem(withTopic: allowed) {
                issues.append(
                    .init(
                        .error, at: path.key("allowed_topics").index(index),
                        "expected a bundle ID (e.g. com.example.chat.beta); it \(problem)"))
            }
        }
        if let endpoint { checks.checkHTTPSURL(endpoint, at: path.key("endpoint"), into: &issues) }
        for environment in Environment.allCases {
            guard let configured = endpoints[environment] else { continue }
            let at = path.key("endpoints").key(environment.rawValue)
            checks.checkHTTPSURL(configured, at: at, into: &issues)
            if environment == self.environment, endpoint != nil {
                issues.append(
                    .init(
                        .error, at: at,
                        "endpoint and endpoints.\(environment.rawValue) both give the \(environment.rawValue) endpoint; give one"
                    ))
            }
        }
        checks.checkCAFile(caFile, at: path.key("ca_file"), into: &issues)
        checks.checkConnections(connections, at: path.key("connections"), into: &issues)
        checks.checkThrottle(maxPerSecond, at: path.key("max_per_second"), into: &issues)
        checks.checkIdleTimeout(idleTimeout, at: path.key("idle_timeout"), into: &issues)
        checks.checkRequestTimeout(timeout, at: path.key("timeout"), into: &issues)
    }
}
