import Foundation
import HeraldCore

extension ConfigValidator {
    func validateApps(_ apps: [String: AppSettings], into issues: inout [ConfigIssue]) {
        let path = ConfigPath.root.key("apps")
        if apps.isEmpty {
            issues.append(.init(.error, at: path, "no apps: define at least one app with apns, fcm or webpush credentials"))
        }
        for name in apps.keys.sorted() {
            guard let app = apps[name] else { continue }
            let appPath = path.key(name)
            if !Event.isValidAppName(name) {
                issues.append(.init(.error, at: appPath,
                                    "app name '\(name.truncatedForMessage)' must be 1 to 64 letters, digits, '-' or '_' (it is the last word of outcome routing keys)"))
            }
            if app.providers.isEmpty {
                issues.append(.init(.error, at: appPath,
                                    "app '\(name.truncatedForMessage)' has no provider: give it an apns, fcm or webpush section (or several)"))
            }
            checkRange(app.timeoutRetries, 0...5, at: appPath.key("timeout_retries"), into: &issues)
            if let apns = app.apns { validateAPNs(apns, at: appPath.key("apns"), into: &issues) }
            if let fcm = app.fcm { validateFCM(fcm, at: appPath.key("fcm"), into: &issues) }
            if let webpush = app.webpush { validateWebPush(webpush, at: appPath.key("webpush"), into: &issues) }
        }
    }

    /// Apple's Team IDs and Key IDs are 10 upper-case letters and digits.
    public static func isAppleIdentifier(_ s: String) -> Bool {
        s.utf8.count == 10 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    func validateAPNs(_ apns: APNsSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        let modes = [("key_file", apns.keyFile), ("key_pem", apns.keyPEM), ("certificate_file", apns.certificateFile)]
            .filter { $0.1 != nil }.map(\.0)
        if modes.count != 1 {
            let found = modes.isEmpty ? "none" : modes.joined(separator: " and ")
            issues.append(.init(.error, at: path,
                                "give exactly one of key_file, key_pem (token auth) or certificate_file (certificate auth); found \(found)"))
        }
        if apns.keyFile != nil || apns.keyPEM != nil {
            for (key, value) in [("team_id", apns.teamID), ("key_id", apns.keyID)] {
                guard let value else {
                    issues.append(.init(.error, at: path.key(key), "token auth needs \(key) (10 characters, from Apple's developer account)"))
                    continue
                }
                if !Self.isAppleIdentifier(value) {
                    issues.append(.init(.error, at: path.key(key), "expected 10 upper-case letters or digits, found '\(value.truncatedForMessage)'"))
                }
            }
        } else if apns.certificateFile != nil {
            for (key, value) in [("team_id", apns.teamID), ("key_id", apns.keyID)] where value != nil {
                issues.append(.init(.warning, at: path.key(key), "\(key) is only used with token auth; certificate auth ignores it"))
            }
        }
        if apns.certificatePassword != nil && apns.certificateFile == nil {
            issues.append(.init(.warning, at: path.key("certificate_password"), "certificate_password is set without certificate_file"))
        }
        if let file = apns.keyFile,
           let key = readFile(file, at: path.key("key_file"), what: "APNs key file", limit: .key, secret: true, into: &issues) {
            checkPrivateKeyPEM(String(decoding: key.bytes, as: UTF8.self), at: path.key("key_file"), into: &issues)
        }
        if let pem = apns.keyPEM {
            checkPrivateKeyPEM(pem, at: path.key("key_pem"), into: &issues)
        }
        if let file = apns.certificateFile {
            _ = readFile(file, at: path.key("certificate_file"), what: "APNs certificate", limit: .certificate, secret: true,
                         into: &issues)
        }
        if apns.topic.isEmpty || apns.topic.contains(" ") {
            issues.append(.init(.error, at: path.key("topic"), "expected the app's bundle id (e.g. com.example.chat), found '\(apns.topic.truncatedForMessage)'"))
        }
        if let endpoint = apns.endpoint { checkHTTPSURL(endpoint, at: path.key("endpoint"), into: &issues) }
        for environment in APNsSettings.Environment.allCases {
            guard let endpoint = apns.endpoints[environment] else { continue }
            let at = path.key("endpoints").key(environment.rawValue)
            checkHTTPSURL(endpoint, at: at, into: &issues)
            if environment == apns.environment, apns.endpoint != nil {
                issues.append(.init(.error, at: at, "endpoint and endpoints.\(environment.rawValue) both give the \(environment.rawValue) endpoint; give one"))
            }
        }
        if let ca = apns.caFile { _ = readFile(ca, at: path.key("ca_file"), what: "CA file", limit: .caBundle, into: &issues) }
        if case .count(let count) = apns.connections { checkRange(count, 1...64, at: path.key("connections"), into: &issues) }
        if let limit = apns.maxPerSecond, !(limit > 0) || !limit.isFinite {
            issues.append(.init(.error, at: path.key("max_per_second"), "a throttle must be above 0, found \(limit)"))
        }
        if apns.idleTimeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path.key("idle_timeout"), "an idle timeout must be above 0"))
        }
        if apns.timeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path.key("timeout"), "a request timeout must be above 0 (a request without one can hang forever)"))
        }
    }

    /// An APNs `.p8` key or a VAPID key is a PKCS#8 (or SEC 1) PEM; the
    /// signer loads it for real at start-up. `what` names the key in the message.
    func checkPrivateKeyPEM(_ text: String, what: String = "the .p8 file from Apple", at path: ConfigPath, into issues: inout [ConfigIssue]) {
        if !text.contains(PEMArmor.begin(PEMArmor.pkcs8PrivateKey)) && !text.contains(PEMArmor.begin(PEMArmor.ecPrivateKey)) {
            issues.append(.init(.error, at: path,
                                "expected a PEM private key (\(what), starting with \(PEMArmor.begin(PEMArmor.pkcs8PrivateKey)))"))
        }
    }

    func validateFCM(_ fcm: FCMSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        var accountJSON: Data?
        switch (fcm.serviceAccountFile, fcm.serviceAccountJSON) {
        case (let file?, nil):
            accountJSON = readFile(file, at: path.key("service_account_file"), what: "service account file", limit: .key,
                                   secret: true, into: &issues).map { Data($0.bytes) }
        case (nil, let json?):
            accountJSON = Data(json.utf8)
        case (.some, .some):
            issues.append(.init(.error, at: path, "give exactly one of service_account_file or service_account_json; found both"))
        case (nil, nil):
            issues.append(.init(.error, at: path, "give exactly one of service_account_file or service_account_json; found none"))
        }
        let keyPath = path.key(fcm.serviceAccountFile != nil ? "service_account_file" : "service_account_json")
        if let accountJSON {
            // The key's rules are ServiceAccountKey's, the same the FCM provider reads it by.
            let projectFromKey: String?
            switch ServiceAccountKey.read(String(decoding: accountJSON, as: UTF8.self)) {
            case .success(let key):
                projectFromKey = key.projectID
            case .failure(let problems):
                projectFromKey = problems.projectID
                issues += problems.messages.map { ConfigIssue(.error, at: keyPath, $0) }
            }
            if fcm.projectID == nil && projectFromKey == nil {
                issues.append(.init(.error, at: path, "no project_id, and the service account does not name one"))
            }
        }
        if let endpoint = fcm.endpoint { checkHTTPSURL(endpoint, at: path.key("endpoint"), into: &issues) }
        if let ca = fcm.caFile { _ = readFile(ca, at: path.key("ca_file"), what: "CA file", limit: .caBundle, into: &issues) }
        if case .count(let count) = fcm.connections { checkRange(count, 1...64, at: path.key("connections"), into: &issues) }
        if let limit = fcm.maxPerMinute, !(limit > 0) || !limit.isFinite {
            issues.append(.init(.error, at: path.key("max_per_minute"), "a throttle must be above 0, found \(limit)"))
        }
        if fcm.idleTimeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path.key("idle_timeout"), "an idle timeout must be above 0"))
        }
        if fcm.timeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path.key("timeout"), "a request timeout must be above 0 (a request without one can hang forever)"))
        }
    }

    /// The shape of a `webpush:` section. That the key is P-256 and the
    /// subject one a push service accepts is proven where the key is loaded
    /// (`herald check` lists it, `herald run` refuses to start).
    func validateWebPush(_ webpush: WebPushSettings, at path: ConfigPath, into issues: inout [ConfigIssue]) {
        let vapid = path.key("vapid")
        let sources = [("private_key_file", webpush.vapid.privateKeyFile), ("private_key_pem", webpush.vapid.privateKeyPEM),
                       ("private_key", webpush.vapid.privateKey)].filter { $0.1 != nil }
        if sources.count != 1 {
            issues.append(.init(.error, at: vapid, "give exactly one of private_key_file, private_key_pem or private_key; found "
                                + (sources.isEmpty ? "none" : sources.map(\.0).joined(separator: " and "))))
        }
        if let file = webpush.vapid.privateKeyFile {
            _ = readFile(file, at: vapid.key("private_key_file"), what: "VAPID key file", limit: .key, secret: true, into: &issues)
        }
        if let pem = webpush.vapid.privateKeyPEM {
            checkPrivateKeyPEM(pem, what: "a P-256 VAPID key", at: vapid.key("private_key_pem"), into: &issues)
        }
        if let key = webpush.vapid.privateKey, Base64URL.decode(key)?.count != 32 {
            issues.append(.init(.error, at: vapid.key("private_key"), "expected the 32-byte P-256 private key in URL-safe base64 (43 characters)"))
        }
        if webpush.vapid.subject.isEmpty {
            issues.append(.init(.error, at: vapid.key("subject"), "expected a contact: mailto:name@example.com or an https: URL"))
        }
        if let ca = webpush.caFile { _ = readFile(ca, at: path.key("ca_file"), what: "CA file", limit: .caBundle, into: &issues) }
        if case .count(let count) = webpush.connections { checkRange(count, 1...64, at: path.key("connections"), into: &issues) }
        if webpush.timeout.milliseconds <= 0 {
            issues.append(.init(.error, at: path.key("timeout"), "a request timeout must be above 0 (a request without one can hang forever)"))
        }
        if webpush.defaultTTL.milliseconds < 0 {
            issues.append(.init(.error, at: path.key("default_ttl"), "a TTL cannot be negative"))
        }
    }
}
