import HeraldCore

extension DeviceRegistration {
    /// What a `register` command asks for; nil for another kind.
    public init?(_ command: RegistryCommand) {
        guard case .register(let channels, let environment, let topic) = command.action else { return nil }
        self.init(device: command.device, channels: channels, environment: environment, topic: topic)
    }

    /// The `register` command's body for this registration (without `id`):
    /// one line of `herald registry export`, which `herald registry import`
    /// and the `herald.registry` queue read back as the same registration.
    public var commandBody: JSONValue {
        var object: JSONObject = ["app": .string(device.app), "provider": .string(device.provider.rawValue)]
        object[device.address.field] = .string(device.address.value)
        object["channels"] = .array(channels.map { .string($0) })
        if let environment { object["environment"] = .string(environment) }
        if let topic { object["topic"] = .string(topic) }
        return .object(object)
    }
}
