import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `export [--app A] [--channel C]`: the registry as JSON lines that
/// `import` reads back, a page at a time.
extension RegistryAdminSession {
    /// Devices per page: one read and one write to standard output each.
    static let exportPageSize = 1000

    /// Every device (of `--app`, or of every app) with all its channels, one
    /// line per device (per device and overrides, when its channels differ in
    /// them); with `--channel`, the devices of that channel, each line naming
    /// that channel alone.
    func export() async throws(RegistryAdminFailure) {
        let app = parsed.options["app"]
        if app != nil || parsed.options["channel"] != nil {
            let (app, channel) = try appAndChannel()
            if let channel { return try await export(app: app, channel: channel) }
            return try await export(app: app)
        }
        try await export(app: nil)
    }

    private func export(app: String?) async throws(RegistryAdminFailure) {
        var after: DeviceKey?
        repeat {
            let page: DeviceRegistrationPage
            do { page = try await store.exportPage(app: app, after: after, limit: Self.exportPageSize) } catch {
                throw RegistryAdminFailure(error, config: config)
            }
            write(page.registrations)
            after = page.next
        } while after != nil
    }

    private func export(app: String, channel: String) async throws(RegistryAdminFailure) {
        var cursor: RegistryCursor?
        repeat {
            let page: RegistryPage
            do {
                page = try await store.devices(
                    app: app, channel: channel, providers: nil, after: cursor, limit: Self.exportPageSize)
            } catch {
                throw RegistryAdminFailure(error, config: config)
            }
            write(
                page.registrations.map {
                    DeviceRegistration(
                        device: $0.device, channels: [channel], environment: $0.environment, topic: $0.topic,
                        profile: DeviceProfile(
                            subscriptionKeys: $0.subscriptionKeys, timezone: $0.timezone, locale: $0.locale,
                            attributes: $0.attributes))
                })
            cursor = page.next
        } while cursor != nil
    }

    private func write(_ registrations: [DeviceRegistration]) {
        guard !registrations.isEmpty else { return }
        let providers = rules.providers
        console.out(registrations.map { $0.commandBody(providers: providers).jsonString }.joined(separator: "\n"))
    }
}
