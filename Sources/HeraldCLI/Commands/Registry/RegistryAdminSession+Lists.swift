import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `list-channels` and `list-devices`.
extension RegistryAdminSession {
    func listChannels() async throws(RegistryAdminFailure) {
        let device: DeviceKey
        do { device = try rules.device(in: body()) } catch { throw RegistryAdminFailure(error) }
        let channels: [String]
        do { channels = try await store.channels(of: device) } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json { return channels.forEach { console.out(JSONValue.object(["channel": .string($0)]).jsonString) } }
        var table = Table("CHANNEL")
        for channel in channels { table.add(channel) }
        console.out(table.text)
    }

    func listDevices() async throws(RegistryAdminFailure) {
        let (app, channel) = try appAndChannel()
        guard let channel else { throw RegistryAdminFailure("--channel: missing; give the channel to list") }
        var providers: Set<Provider>?
        if let name = parsed.options["provider"] {
            do {
                providers = try FieldReader(object: ["provider": .string(name)], path: "").provider(
                    "provider", among: rules.providers
                ).map { [$0] }
            } catch {
                throw RegistryAdminFailure(error)
            }
        }
        var limit = RegistryAdminCommand.defaultPageSize
        if let text = parsed.options["limit"] {
            guard let number = Int(text), (1...rules.limits.maxPageSize).contains(number) else {
                throw RegistryAdminFailure(
                    "--limit: expected a whole number from 1 to \(rules.limits.maxPageSize), found '\(text.truncatedForMessage)'"
                )
            }
            limit = number
        }
        var cursor: RegistryCursor?
        if let text = parsed.options["after"] {
            guard let after = RegistryCursor(text) else {
                throw RegistryAdminFailure(
                    "--after: '\(text.truncatedForMessage)' is not a cursor; give the one a previous page printed")
            }
            cursor = after
        }
        let page: RegistryPage
        do {
            page = try await store.devices(
                app: app, channel: channel, providers: providers, after: cursor, limit: limit)
        } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json {
            for registration in page.registrations { console.out(Self.json(registration).jsonString) }
        } else {
            // A KEYS column (p256dh, `auth` masked) when the page has a Web Push subscription.
            let keys = page.registrations.contains { $0.subscriptionKeys != nil || $0.unreadableKeys != nil }
            var table = Table(
                header: ["PROVIDER", "KIND", "ADDRESS", "ENVIRONMENT", "TOPIC", "CREATED_AT", "UPDATED_AT"]
                    + (keys ? ["KEYS"] : []))
            for r in page.registrations {
                var row = [
                    r.device.provider.rawValue, r.device.address.field, r.device.address.value, r.environment ?? "-",
                    r.topic ?? "-",
                    r.createdAt.rfc3339(fractionDigits: 3), r.updatedAt.rfc3339(fractionDigits: 3),
                ]
                if keys {
                    row.append(r.subscriptionKeys.map(\.description) ?? (r.unreadableKeys != nil ? "unreadable" : "-"))
                }
                table.add(row)
            }
            console.out(table.text)
        }
        for problem in page.registrations.compactMap(\.unreadableKeys) { console.err(problem) }
        if let next = page.next { console.err("more devices: --after \(next)") }
    }

    /// One registration as a `--json` line of list-devices.
    static func json(_ registration: Registration) -> JSONValue {
        var object: JSONObject = [
            "app": .string(registration.device.app), "channel": .string(registration.channel),
            "provider": .string(registration.device.provider.rawValue),
        ]
        object[registration.device.address.field] = .string(registration.device.address.value)
        if let environment = registration.environment { object["environment"] = .string(environment) }
        if let topic = registration.topic { object["topic"] = .string(topic) }
        // `auth` is a secret: listed masked, never as stored.
        if let keys = registration.subscriptionKeys {
            object["keys"] = ["p256dh": .string(keys.p256dh), "auth": .string(SubscriptionKeys.maskedAuth)]
        }
        object["created_at"] = .string(registration.createdAt.rfc3339(fractionDigits: 3))
        object["updated_at"] = .string(registration.updatedAt.rfc3339(fractionDigits: 3))
        // The device's time zone, locale and attributes, when it has them (the same on every channel).
        for (key, value) in registration.attributesObject { object[key] = value }
        return .object(object)
    }
}
