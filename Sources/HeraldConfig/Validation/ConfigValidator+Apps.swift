import HeraldCore
import HeraldProviderKit

extension ConfigValidator {
    /// With `unusable_credentials: not_ready`, an app's credential file that
    /// cannot be read is a warning: that app alone is not ready at run time.
    func validateApps(
        _ apps: [String: AppSettings], unusableCredentials: Configuration.UnusableCredentials,
        into issues: inout [ConfigIssue]
    ) {
        let path = ConfigPath.root.key("apps")
        var checks = checks
        if unusableCredentials == .notReady { checks.unreadableSecret = .warning }
        if apps.isEmpty {
            issues.append(.init(.error, at: path, "no apps: define at least one app with \(sectionNames) credentials"))
        }
        for name in apps.keys.sorted() {
            guard let app = apps[name] else { continue }
            let appPath = path.key(name)
            if !Event.isValidAppName(name) {
                issues.append(
                    .init(
                        .error, at: appPath,
                        "app name '\(name.truncatedForMessage)' must be 1 to 64 letters, digits, '-' or '_' (it is the last word of outcome routing keys)"
                    ))
            }
            if app.providers.isEmpty {
                issues.append(
                    .init(
                        .error, at: appPath,
                        "app '\(name.truncatedForMessage)' has no provider: give it an \(sectionNames) section (or several)"
                    ))
            }
            checks.checkRange(app.timeoutRetries, 0...5, at: appPath.key("timeout_retries"), into: &issues)
            validatePublishers(app.publishers, of: name, at: appPath, into: &issues)
            for section in app.orderedSections {
                section.validate(at: appPath.key(type(of: section).provider.rawValue), with: checks, into: &issues)
            }
        }
    }

    /// Warnings about a config that works but trusts more than it needs to:
    /// an app without `publishers:` takes events and registry commands from
    /// any AMQP user that can write to the exchanges. Given only with a config
    /// that loads (`herald check`, `herald run`), not among a broken one's errors.
    public func advice(_ config: Configuration) -> [ConfigIssue] {
        config.apps.keys.sorted().filter { config.apps[$0]?.publishers == nil }.map { name in
            ConfigIssue(
                .warning, at: .root.key("apps").key(name),
                "app '\(name.truncatedForMessage)' has no publishers list: any AMQP user that can write to the events or "
                    + "registry exchange can send for it; list who may (publishers: {events: [orders-svc], registry: [accounts-svc]}, "
                    + "docs/security.md)")
        }
    }

    /// `publishers:`: user names AMQP can carry in `user-id`.
    private func validatePublishers(
        _ publishers: PublisherSettings?, of app: String, at appPath: ConfigPath,
        into issues: inout [ConfigIssue]
    ) {
        guard let publishers else { return }
        for (key, names) in [("events", publishers.events), ("registry", publishers.registry)] {
            for (index, name) in names.enumerated() {
                let at = appPath.key("publishers").key(key).index(index)
                if name.isEmpty {
                    issues.append(.init(.error, at: at, "expected an AMQP user name, found an empty string"))
                } else if name.utf8.count > PublisherSettings.maxNameBytes {
                    issues.append(
                        .init(
                            .error, at: at,
                            "is \(name.utf8.count) bytes, over the \(PublisherSettings.maxNameBytes) an AMQP user-id can carry"
                        ))
                } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    issues.append(.init(.error, at: at, "an AMQP user name cannot have control characters"))
                }
            }
        }
    }

    /// The providers' section names, as a message lists them: `apns, fcm or webpush`.
    var sectionNames: String {
        let names = providers.map(\.provider.rawValue)
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
