import HeraldCore

/// What came of one registry command — or of a device's retirement after
/// `registry.expire_after` without a register (``Status/expired``) —
/// published to the results exchange with routing key
/// `<result>.<provider>.<app>` (``routingKey``), so the sender learns that
/// its registration is stored (or why it was refused, or that it is gone)
/// without reading the database. Shaped like an outcome: keys in a fixed order,
/// absent values omitted (schemas/registry-result.schema.json).
public struct RegistryResult: Sendable, Equatable {
    /// The `result` field and the routing key's first word.
    public enum Status: String, Sendable, CaseIterable {
        case registered
        /// unregister and unregister_device.
        case unregistered
        /// replace_token.
        case replaced
        /// The command was refused (``RegistryCommandError``, or a limit the
        /// store enforces) and dead-lettered; `reason` says why.
        case rejected = "registry_rejected"
        /// No command: the device was not registered again for
        /// `registry.expire_after` and was taken off every channel.
        case expired = "registry_expired"
    }

    /// One channel a command named, with what registering did on it (nil for unregister).
    public struct ChannelChange: Sendable, Equatable {
        public var channel: String
        public var change: RegistryChange?

        public init(channel: String, change: RegistryChange?) {
            self.channel = channel
            self.change = change
        }
    }

    public var status: Status
    /// The command's kind as its routing key named it (also when it named none Herald knows).
    public var command: String?
    public var commandID: String?
    public var app: String?
    public var provider: Provider?
    public var address: Target.Address?
    /// replace_token: the new token.
    public var newAddress: Target.Address?
    public var channels: [ChannelChange]
    /// What the command did as a whole.
    public var change: RegistryChange?
    public var reason: String?
    /// The command reached Herald again: this result may repeat one already published.
    public var redelivered: Bool
    /// `registry_expired`: when the device was last registered.
    public var lastSeen: Timestamp?
    public var at: Timestamp

    public init(status: Status, command: String?, commandID: String?, at: Timestamp) {
        self.status = status
        self.command = command
        self.commandID = commandID
        self.channels = []
        self.redelivered = false
        self.at = at
    }

    /// `<result>.<provider>.<app>`, `unknown` for what the command did not name, as outcomes' keys are made.
    public var routingKey: String {
        "\(status.rawValue).\(provider?.rawValue ?? "unknown").\(Outcome.routingWord(app))"
    }

    /// Keys in the schema's order: `command`, `command_id`, `result`, `app`,
    /// `provider`, `token`|`fid`|`endpoint`, `new_token`, `channels` (register: an object
    /// of each channel's change; unregister: the names), `change`, `removed`
    /// (unregister, unregister_device, registry_expired), `reason`,
    /// `redelivered` (only when true), `last_seen` (registry_expired), `at`
    /// (both with milliseconds).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let command { object["command"] = .string(command) }
        if let commandID { object["command_id"] = .string(commandID) }
        object["result"] = .string(status.rawValue)
        if let app { object["app"] = .string(app) }
        if let provider { object["provider"] = .string(provider.rawValue) }
        if let address { object[address.field] = .string(address.value) }
        if let newAddress { object["new_token"] = .string(newAddress.value) }
        if !channels.isEmpty {
            if command == RegistryCommand.Kind.register.rawValue, status != .rejected {
                object["channels"] = .object(
                    JSONObject(channels.compactMap { entry in entry.change.map { (entry.channel, .string($0.name)) } }))
            } else {
                object["channels"] = .array(channels.map { .string($0.channel) })
            }
        }
        if let change { object["change"] = .string(change.name) }
        if status == .unregistered || status == .expired {
            if case .removed(let count) = change { object["removed"] = .number(JSONNumber(count)) }
            if change == .notFound { object["removed"] = .number(JSONNumber(0)) }
        }
        if let reason { object["reason"] = .string(reason) }
        if redelivered { object["redelivered"] = .bool(true) }
        if let lastSeen { object["last_seen"] = .string(lastSeen.rfc3339(fractionDigits: 3)) }
        object["at"] = .string(at.rfc3339(fractionDigits: 3))
        return .object(object)
    }

    /// The body published to the results exchange.
    public var encoded: [UInt8] { jsonValue.serialized }

    /// The `registry_expired` result of a retired device: no command, the
    /// device, the channels it was taken off, when it was last seen.
    public static func expired(_ retired: RetiredDevice, at time: Timestamp) -> RegistryResult {
        var result = RegistryResult(status: .expired, command: nil, commandID: nil, at: time)
        result.app = retired.device.app
        result.provider = retired.device.provider
        result.address = retired.device.address
        result.channels = retired.channels.map { ChannelChange(channel: $0, change: nil) }
        result.change = .removed(count: retired.channels.count)
        result.lastSeen = retired.lastSeen
        return result
    }

    /// The result of a refused command, naming it as far as its body can be
    /// read (`id`, a valid app name, a known provider, the device's address,
    /// the new token, channel names), so a sender bound to
    /// `registry_rejected.*.<app>` learns of its own commands.
    public static func rejected(
        _ error: RegistryCommandError, body: [UInt8], routingKey: String, fallbackID: String?,
        providers: ProviderCatalog, at time: Timestamp
    ) -> RegistryResult {
        var result = RegistryResult(
            status: .rejected, command: routingKey.isEmpty ? nil : routingKey,
            commandID: fallbackID.flatMap(RegistryCommand.usableID), at: time)
        result.reason = error.description
        guard body.count <= RegistryCommand.maxBytes,
            case .object(let root)? = try? JSONValue.parse(body, limits: RegistryCommand.jsonLimits)
        else { return result }
        if let id = root["id"]?.stringValue.flatMap(RegistryCommand.usableID) { result.commandID = id }
        result.app = root["app"]?.stringValue.flatMap { Event.isValidAppName($0) ? $0 : nil }
        result.provider = root["provider"]?.stringValue.flatMap(providers.provider(named:))
        let address: (String) -> String? = { $0.utf8.count > Event.maxTokenBytes ? nil : $0 }
        if let token = root["token"]?.stringValue.flatMap(address) {
            result.address = .token(token)
        } else if let fid = root["fid"]?.stringValue.flatMap(address) {
            result.address = .fid(fid)
        } else if let provider = result.provider, let rules = providers.rules(for: provider),
            rules.registrationTargetField != nil,
            let given = rules.addressGiven(in: FieldReader(object: root, path: "")), address(given.value) != nil
        {
            result.address = given
        }
        result.newAddress = root["new_token"]?.stringValue.flatMap(address).map { .token($0) }
        if let elements = root["channels"]?.arrayValue, elements.count <= RegistryLimits.default.maxChannelsPerDevice {
            let names = elements.compactMap {
                $0.stringValue.flatMap { $0.utf8.count > RegistryLimits.default.maxChannelBytes ? nil : $0 }
            }
            if names.count == elements.count { result.channels = names.map { ChannelChange(channel: $0, change: nil) } }
        }
        return result
    }
}
