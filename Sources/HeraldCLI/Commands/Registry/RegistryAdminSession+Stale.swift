import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `stale`: the devices not registered for `--older-than`, longest unseen
/// first — what `registry.expire_after` of that length would retire.
extension RegistryAdminSession {
    func stale() async throws(RegistryAdminFailure) {
        guard let text = parsed.options["older-than"] else {
            throw RegistryAdminFailure("--older-than: missing; give how long a device has not registered, e.g. 90d")
        }
        guard let olderThan = ConfigDuration(parsing: text), olderThan.milliseconds > 0 else {
            throw RegistryAdminFailure(
                "--older-than: expected a duration like 90d, 12h or 30m, found '\(text.truncatedForMessage)'")
        }
        var app: String?
        if let name = parsed.options["app"] {
            do { try rules.app(name) } catch { throw RegistryAdminFailure(error) }
            app = name
        }
        var limit = RegistryAdminCommand.defaultPageSize
        if let text = parsed.options["limit"] {
            // One more is read to tell whether there are more.
            guard let number = Int(text), (1..<rules.limits.maxPageSize).contains(number) else {
                throw RegistryAdminFailure(
                    "--limit: expected a whole number from 1 to \(rules.limits.maxPageSize - 1), found '\(text.truncatedForMessage)'"
                )
            }
            limit = number
        }
        let devices: [RegisteredDevice]
        do {
            devices = try await store.staleDevices(
                app: app, seenBefore: clock() + (.zero - olderThan.duration), limit: limit + 1)
        } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json {
            for device in devices.prefix(limit) { console.out(Self.json(device).jsonString) }
        } else {
            var table = Table("APP", "PROVIDER", "KIND", "ADDRESS", "LAST_SEEN", "CREATED_AT")
            for device in devices.prefix(limit) {
                table.add(
                    device.key.app, device.key.provider.rawValue, device.key.address.field, device.key.address.value,
                    device.lastSeen.rfc3339(fractionDigits: 3), device.createdAt.rfc3339(fractionDigits: 3))
            }
            console.out(table.text)
        }
        if devices.count > limit {
            console.err("more stale devices: raise --limit (at most \(rules.limits.maxPageSize - 1))")
        }
    }

    /// One stale device as a `--json` line: its key, when it was last and
    /// first registered, and its time zone, locale and attributes (never a
    /// Web Push subscription's keys).
    static func json(_ device: RegisteredDevice) -> JSONValue {
        var object: JSONObject = [
            "app": .string(device.key.app), "provider": .string(device.key.provider.rawValue),
        ]
        object[device.key.address.field] = .string(device.key.address.value)
        object["last_seen"] = .string(device.lastSeen.rfc3339(fractionDigits: 3))
        object["created_at"] = .string(device.createdAt.rfc3339(fractionDigits: 3))
        for (key, value) in device.attributesObject { object[key] = value }
        return .object(object)
    }
}
