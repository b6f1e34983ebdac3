import HeraldCore
import HeraldProviderKit
import HeraldProviders

extension ConfigValidator {
    func validateApps(_ apps: [String: AppSettings], into issues: inout [ConfigIssue]) {
        let path = ConfigPath.root.key("apps")
        if apps.isEmpty {
            issues.append(.init(.error, at: path, "no apps: define at least one app with \(Self.sectionNames) credentials"))
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
                                    "app '\(name.truncatedForMessage)' has no provider: give it an \(Self.sectionNames) section (or several)"))
            }
            checks.checkRange(app.timeoutRetries, 0...5, at: appPath.key("timeout_retries"), into: &issues)
            for section in app.orderedSections {
                section.validate(at: appPath.key(type(of: section).provider.rawValue), with: checks, into: &issues)
            }
        }
    }

    /// The registered providers' section names, as a message lists them: `apns, fcm or webpush`.
    static var sectionNames: String {
        let names = RegisteredProviders.sections.map { $0.provider.rawValue }
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
