import HeraldCore

extension DeviceRegistration {
    /// What a `register` command asks for; nil for another kind.
    public init?(_ command: RegistryCommand) {
        guard case .register(let channels, let environment, let topic) = command.action else { return nil }
        self.init(
            device: command.device, channels: channels, environment: environment, topic: topic,
            profile: command.profile)
    }

    /// The `register` command's body for this registration (without `id`):
    /// one line of `herald registry export`, which `herald registry import`
    /// and the `herald.registry` queue read back as the same registration —
    /// except a Web Push subscription's `auth` secret, which is never
    /// written out: it is ``SubscriptionKeys/maskedAuth``, and such a line is
    /// refused when read back.
    public func commandBody(providers: ProviderCatalog) -> JSONValue {
        var object: JSONObject = ["app": .string(device.app), "provider": .string(device.provider.rawValue)]
        if let field = providers.rules(for: device.provider)?.registrationTargetField {
            var target: JSONObject = [device.address.field: .string(device.address.value)]
            if let keys = profile.subscriptionKeys {
                target["keys"] = .object(["p256dh": .string(keys.p256dh), "auth": .string(SubscriptionKeys.maskedAuth)])
            }
            object[field] = .object(target)
        } else {
            object[device.address.field] = .string(device.address.value)
        }
        object["channels"] = .array(channels.map { .string($0) })
        if let environment { object["environment"] = .string(environment) }
        if let topic { object["topic"] = .string(topic) }
        if let timezone = profile.timezone { object["timezone"] = .string(timezone) }
        if let locale = profile.locale { object["locale"] = .string(locale) }
        if let attributes = profile.attributes, !attributes.isEmpty {
            let sorted = attributes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            object["attributes"] = .object(JSONObject(sorted.map { ($0.key, JSONValue.string($0.value)) }))
        }
        return .object(object)
    }
}
