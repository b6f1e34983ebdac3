import HeraldCore
import HeraldProviderKit

extension FCMSettings {
    public func validate(at path: ConfigPath, with checks: ConfigChecks, into issues: inout [ConfigIssue]) {
        var accountJSON: String?
        switch (serviceAccountFile, serviceAccountJSON) {
        case (let file?, nil):
            accountJSON = checks.readFile(
                file, at: path.key("service_account_file"), what: "service account file", limit: .key,
                secret: true, into: &issues
            ).map { String(decoding: $0.bytes, as: UTF8.self) }
        case (nil, let json?):
            accountJSON = json
        case (.some, .some):
            issues.append(
                .init(.error, at: path, "give exactly one of service_account_file or service_account_json; found both"))
        case (nil, nil):
            issues.append(
                .init(.error, at: path, "give exactly one of service_account_file or service_account_json; found none"))
        }
        let keyPath = path.key(serviceAccountFile != nil ? "service_account_file" : "service_account_json")
        if let accountJSON {
            // The key's rules are ServiceAccountKey's, the same the FCM provider reads it by.
            let projectFromKey: String?
            switch ServiceAccountKey.read(accountJSON) {
            case .success(let key):
                projectFromKey = key.projectID
            case .failure(let problems):
                projectFromKey = problems.projectID
                issues += problems.messages.map { ConfigIssue(.error, at: keyPath, $0) }
            }
            if projectID == nil && projectFromKey == nil {
                issues.append(.init(.error, at: path, "no project_id, and the service account does not name one"))
            }
        }
        if let endpoint { checks.checkHTTPSURL(endpoint, at: path.key("endpoint"), into: &issues) }
        checks.checkCAFile(caFile, at: path.key("ca_file"), into: &issues)
        checks.checkConnections(connections, at: path.key("connections"), into: &issues)
        checks.checkThrottle(maxPerMinute, per: .minute, at: path.key("max_per_minute"), into: &issues)
        checks.checkIdleTimeout(idleTimeout, at: path.key("idle_timeout"), into: &issues)
        checks.checkRequestTimeout(timeout, at: path.key("timeout"), into: &issues)
    }
}
