import HeraldCore
import HeraldConfig
import HeraldService

/// What `herald send` checks before it contacts a provider, beyond what an
/// event from the broker is checked for: a notification that would reach
/// the device and show nothing, and an app the config does not have.
extension Event {
    /// Whether the device gets anything from it: something the user sees or
    /// hears (text, a sound, a badge), data for the app, a background wake-up
    /// (`content_available`), or a provider section (`--apns-payload`).
    var hasContent: Bool {
        notification?.isVisible == true || data?.isEmpty == false || contentAvailable || !providerSections.isEmpty
    }

    /// The usage error of a notification without content.
    static let noContent =
        "the notification has no content: give --title, --body, --sound, --badge, --data or --content-available,"
        + " or --silent to send it without"
}

extension LoadedConfig {
    /// The usage error for `--app app` when the config has no such app, with the closest app it has.
    func unknownApp(_ app: String) -> UsageError? {
        let apps = configuration.apps.keys.sorted()
        guard !apps.contains(app) else { return nil }
        return UsageError("--app: \(file) has no app '\(app)'" + Suggestions.hint(for: app, among: apps))
    }
}
