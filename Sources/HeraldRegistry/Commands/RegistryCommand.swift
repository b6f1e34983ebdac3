import HeraldCore

/// One change to the registry asked for from outside Herald: a message on the
/// `herald.registry` queue, or a `herald registry` command line. Decoding and
/// checking happen here alone, so both ways refuse the same input with the
/// same words, before the store is touched, and ``apply(to:at:)`` gives both
/// the same semantics (docs/registry.md, "Managing registrations").
///
/// The kind comes from the AMQP routing key (or the CLI's subcommand); the
/// JSON body names the device and what to do to it:
/// `{"app": "chat", "provider": "apns", "token": "…", "channels": ["user:42"]}`.
public struct RegistryCommand: Sendable, Equatable {
    /// What a command does; its name is the routing key it is published with.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Puts the device on channels (`RegistryStore.register`).
        case register
        /// Takes the device off channels (`RegistryStore.unregister`).
        case unregister
        /// Takes the device off every channel of its app (`RegistryStore.unregisterDevice`).
        case unregisterDevice = "unregister_device"
        /// Moves the device's memberships to its new token (`RegistryStore.replaceToken`).
        case replaceToken = "replace_token"

        /// The body fields of this kind besides `id` and the device's.
        var ownFields: [String] {
            switch self {
            case .register: ["channels", "environment", "topic"] + Rules.profileFields
            case .unregister: ["channels"]
            case .unregisterDevice: []
            case .replaceToken: ["new_token"]
            }
        }

        public var description: String { rawValue }
    }

    /// What the command does to its device, with what each kind needs.
    public enum Action: Sendable, Equatable {
        /// Channels in the order given, without repeats; the APNs overrides (nil: the app's).
        case register(channels: [String], environment: String?, topic: String?)
        /// Channels in the order given, without repeats.
        case unregister(channels: [String])
        case unregisterDevice
        /// The device's new address.
        case replaceToken(with: Target.Address)
    }

    /// The sender's id for the command (`id`, else the AMQP message-id), echoed as `command_id`.
    public var id: String?
    public var device: DeviceKey
    public var action: Action
    /// What a `register` says of the device itself — its time zone, locale
    /// and attributes, a Web Push subscription's keys — kept once per device
    /// of the app (nil fields keep the stored values); empty for the other
    /// kinds, which refuse those fields.
    public var profile: DeviceProfile

    /// A command as given; ``decode(json:kind:fallbackID:rules:)`` checks
    /// what senders send, code building a command itself is trusted to.
    public init(id: String? = nil, device: DeviceKey, action: Action, profile: DeviceProfile = DeviceProfile()) {
        self.id = id
        self.device = device
        self.action = action
        self.profile = profile
    }

    public var kind: Kind {
        switch action {
        case .register: .register
        case .unregister: .unregister
        case .unregisterDevice: .unregisterDevice
        case .replaceToken: .replaceToken
        }
    }

    /// Every field a command body may have besides the device's (each kind takes some of them).
    static let ownFieldNames = ["id", "channels", "environment", "topic"] + Rules.profileFields + ["new_token"]
    /// The largest body, in bytes: a device's 1000 channels of 255 bytes fit with room to spare.
    public static let maxBytes = 1 << 20
    /// The deepest nesting a body needs is 2 (an array in the object); a little room beyond.
    static let jsonLimits = JSONLimits(maxDepth: 8, maxBytes: maxBytes)
    /// The longest `id`: it becomes the AMQP `message-id` (a short string) of the result.
    public static let maxIDBytes = EventLimits.default.maxIDBytes

    /// `id` when it can be a command's id (and its result's `message-id`): not empty, at most ``maxIDBytes``.
    static func usableID(_ id: String) -> String? {
        id.isEmpty || id.utf8.count > maxIDBytes ? nil : id
    }

    /// The kind a routing key names.
    public static func kind(_ routingKey: String) throws(RegistryCommandError) -> Kind {
        if let kind = Kind(rawValue: routingKey) { return kind }
        let names = Kind.allCases.map(\.rawValue)
        let hint =
            Suggestions.closest(to: routingKey, among: names).map { "did you mean \(JSONText.quoted($0))?" }
            ?? "expected \(EventError.list(names))"
        throw RegistryCommandError(
            field: "routing_key", message: "unknown command \(JSONText.quoted(routingKey)) (\(hint))")
    }

    /// Who sent a command: what ``Rules/publishers`` is checked against.
    public enum Sender: Sendable, Equatable {
        /// The operator (`herald registry`): any app.
        case `operator`
        /// An AMQP publisher, by the message's `user-id` property, which the
        /// broker checked against the publishing connection's user; nil when
        /// the message has none.
        case amqp(userID: String?)
    }

    /// Decodes and checks a command body that arrived with `routingKey`.
    ///
    /// - Parameters:
    ///   - fallbackID: the id when the body has none (the AMQP `message-id`).
    ///   - sender: who sent it; an app with a publishers list takes commands from those only.
    /// - Throws: ``RegistryCommandError`` naming the first problem; the size
    ///   is checked before any parsing.
    public static func decode(
        _ body: [UInt8], routingKey: String, fallbackID: String?, rules: Rules,
        sender: Sender = .operator
    ) throws(RegistryCommandError) -> RegistryCommand {
        let kind = try kind(routingKey)
        return try decode(json: try parse(body), kind: kind, fallbackID: fallbackID, rules: rules, sender: sender)
    }

    /// Decodes and checks an already parsed body of a command of `kind`.
    public static func decode(
        json: JSONValue, kind: Kind, fallbackID: String?, rules: Rules,
        sender: Sender = .operator
    ) throws(RegistryCommandError) -> RegistryCommand {
        guard case .object(let root) = json else {
            throw RegistryCommandError(
                field: "command", message: "expected a JSON object, found \(json.kindDescription)")
        }
        // Who may send for the app comes first: a sender that may not learns nothing of the rest.
        if case .amqp(let userID) = sender, case .string(let app)? = root["app"] {
            try rules.publisher(userID, app: app)
        }
        let fields = FieldReader(object: root, path: "")
        try refuseForeignFields(fields, kind: kind, deviceFields: rules.deviceFields)
        let id = try decodeID(fields) ?? fallbackID.flatMap(usableID)
        let (device, keys) = try rules.registeredDevice(in: root)
        let operation = kind.rawValue
        switch kind {
        case .register:
            let channels = try rules.channels(try channelList(fields), operation)
            let environment = try fields.string("environment")
            let topic = try fields.string("topic")
            // A provider with topics of its own (FCM) hears "topic" as one of them: say which topic this is.
            if let rules = rules.providers.rules(for: device.provider), !rules.registrationFields.contains("topic"),
                rules.addressKinds.contains(.topic), topic != nil
            {
                throw RegistryCommandError(
                    field: "topic",
                    message: "is the APNs topic (bundle ID) a device registers with; "
                        + "an \(rules.displayName) topic is not a device, register a device token or FID")
            }
            try rules.checked("environment") { () throws(RegistryError) in
                try rules.validation.overrides(
                    environment: environment, topic: nil, provider: device.provider, operation)
            }
            try rules.checked("topic") { () throws(RegistryError) in
                try rules.validation.overrides(environment: nil, topic: topic, provider: device.provider, operation)
            }
            if let topic { try rules.topic(topic, app: device.app) }
            try rules.destination(device)
            return RegistryCommand(
                id: id, device: device, action: .register(channels: channels, environment: environment, topic: topic),
                profile: try rules.profile(fields, subscriptionKeys: keys))
        case .unregister:
            let channels = try rules.channels(try channelList(fields), operation)
            return RegistryCommand(id: id, device: device, action: .unregister(channels: channels))
        case .unregisterDevice:
            return RegistryCommand(id: id, device: device, action: .unregisterDevice)
        case .replaceToken:
            guard let newToken = try fields.string("new_token") else {
                throw RegistryCommandError(field: "new_token", message: "missing; give the device's new token")
            }
            let address = Target.Address.token(newToken)
            try rules.checked("new_token") { () throws(RegistryError) in
                try rules.validation.address(address, provider: device.provider, operation)
            }
            return RegistryCommand(id: id, device: device, action: .replaceToken(with: address))
        }
    }

    /// Applies the command to `store` (one call, one transaction) and says
    /// what it did, as the result to publish.
    public func apply(to store: any RegistryStore, at time: Timestamp) async throws(RegistryError) -> RegistryResult {
        var result = RegistryResult(status: .registered, command: kind.rawValue, commandID: id, at: time)
        result.app = device.app
        result.provider = device.provider
        result.address = device.address
        switch action {
        case .register(let channels, let environment, let topic):
            let changes = try await store.register(
                device, profile: profile, channels: channels, environment: environment, topic: topic, at: time)
            result.channels = channels.map { RegistryResult.ChannelChange(channel: $0, change: changes[$0]) }
            result.change = RegistryChange.summary(of: changes.values)
        case .unregister(let channels):
            result.status = .unregistered
            result.channels = channels.map { RegistryResult.ChannelChange(channel: $0, change: nil) }
            result.change = try await store.unregister(device, channels: channels)
        case .unregisterDevice:
            result.status = .unregistered
            result.change = try await store.unregisterDevice(device)
        case .replaceToken(let new):
            result.status = .replaced
            result.newAddress = new
            result.change = try await store.replaceToken(device, with: new, at: time)
        }
        return result
    }

    /// The store's refusal of this command (a limit it enforces, an argument
    /// it refuses) as the field it concerns; any other failure that is not
    /// retryable as the registry's.
    public func refusal(_ error: RegistryError) -> RegistryCommandError {
        guard error.kind == .limitExceeded || error.kind == .invalidInput else {
            return RegistryCommandError(field: "registry", message: "\(error.message) (\(error.kind.rawValue))")
        }
        let field =
            switch action {
            case .register, .unregister: "channels"
            case .replaceToken: "new_token"
            case .unregisterDevice: "command"
            }
        return RegistryCommandError(field: field, message: error.message)
    }

    static func parse(_ body: [UInt8]) throws(RegistryCommandError) -> JSONValue {
        guard body.count <= maxBytes else {
            throw RegistryCommandError(
                field: "body", message: "command is \(body.count) bytes, over the limit of \(maxBytes)")
        }
        do throws(JSONError) {
            return try JSONValue.parse(body, limits: jsonLimits)
        } catch {
            throw RegistryCommandError(field: "body", message: error.description)
        }
    }

    /// Refuses an unknown field (with a suggestion), and a field of another kind.
    private static func refuseForeignFields(_ fields: FieldReader, kind: Kind, deviceFields: [String])
        throws(RegistryCommandError)
    {
        if fields.value("condition") != nil {
            throw RegistryCommandError(
                field: "condition", message: "a condition is not a device; register a device token or FID")
        }
        try fields.rejectUnknownKeys(allowed: ownFieldNames + deviceFields)
        let allowed = ["id"] + deviceFields + kind.ownFields
        // `null` is absent, as in events: a serializer's `"new_token": null` on a register is harmless.
        guard let key = fields.object.keys.first(where: { !allowed.contains($0) && fields.value($0) != nil }) else {
            return
        }
        let owners = Kind.allCases.filter { $0.ownFields.contains(key) }.map(\.rawValue)
        let named =
            owners.count < 2
            ? owners.joined() : owners.dropLast().joined(separator: ", ") + " and " + (owners.last ?? "")
        throw RegistryCommandError(
            field: key, message: "is not a field of \(kind) (only \(named) take\(owners.count == 1 ? "s" : "") it)")
    }

    private static func decodeID(_ fields: FieldReader) throws(RegistryCommandError) -> String? {
        guard let id = try fields.string("id", nonEmpty: true) else { return nil }
        guard id.utf8.count <= maxIDBytes else {
            throw RegistryCommandError(
                field: "id",
                message: "is \(id.utf8.count) bytes, over the limit of \(maxIDBytes) "
                    + "(it is the AMQP message-id of the result)")
        }
        return id
    }

    private static func channelList(_ fields: FieldReader) throws(RegistryCommandError) -> [String] {
        guard let channels = try fields.stringArray("channels") else {
            throw RegistryCommandError(field: "channels", message: "missing; give at least one channel")
        }
        return channels
    }
}

extension RegistryCommand {
    /// What a command is checked against besides its own fields: the apps
    /// Herald delivers for, the providers each has credentials for,
    /// and the store's limits. The CLI checks its arguments with the same.
    public struct Rules: Sendable {
        /// Each app Herald has, with the providers it can deliver through.
        public var apps: [String: Set<Provider>]
        /// The providers Herald knows, with their rules for devices.
        public var providers: ProviderCatalog
        public var limits: RegistryLimits
        /// Per app, the AMQP users (`user-id`) whose commands may name it; an
        /// app absent here takes commands from anyone who can publish them.
        public var publishers: [String: Set<String>]
        /// Per app, the APNs topics a registration's `topic` may be; an app
        /// absent here takes any topic.
        public var topics: [String: Set<String>]
        /// Per app and provider, why a device's address may not be
        /// registered: the rule that would refuse to send to it (Web Push: the
        /// app's egress policy and `allowed_hosts`), nil when it may. A
        /// provider absent here takes any address.
        public var destinations: [String: [Provider: DestinationCheck]]

        /// The rule that refuses to send to an address, in words; nil when it may be sent to.
        public typealias DestinationCheck = @Sendable (Target.Address) -> String?

        public init(
            apps: [String: Set<Provider>], providers: ProviderCatalog, limits: RegistryLimits = .default,
            publishers: [String: Set<String>] = [:], topics: [String: Set<String>] = [:],
            destinations: [String: [Provider: DestinationCheck]] = [:]
        ) {
            self.apps = apps
            self.providers = providers
            self.limits = limits
            self.publishers = publishers
            self.topics = topics
            self.destinations = destinations
        }

        /// A registered device's address: one its app would send to, else
        /// refused naming the rule (as the device's field gives it:
        /// `subscription.endpoint`).
        public func destination(_ device: DeviceKey) throws(RegistryCommandError) {
            guard let check = destinations[device.app]?[device.provider], let rule = check(device.address) else {
                return
            }
            let field = providers.rules(for: device.provider)?.registrationTargetField
            throw RegistryCommandError(
                field: field.map { "\($0).\(device.address.field)" } ?? device.address.field,
                message: "is refused: app \(JSONText.quoted(device.app)) would not send to it, \(rule)")
        }

        /// A command naming `app` from the AMQP user `userID` (nil: the
        /// message had no `user-id`): refused when the app lists its
        /// publishers and the user is not one of them.
        public func publisher(_ userID: String?, app: String) throws(RegistryCommandError) {
            guard let allowed = publishers[app] else { return }
            guard let userID else {
                throw RegistryCommandError(
                    field: "user-id",
                    message: "missing: app \(JSONText.quoted(app)) takes registry commands "
                        + "only from its registry publishers, and the message has no AMQP user-id property")
            }
            guard !allowed.contains(userID) else { return }
            throw RegistryCommandError(
                field: "user-id",
                message: "\(JSONText.quoted(userID)) is not a registry publisher of app \(JSONText.quoted(app))")
        }

        /// A registration's `topic` for a device of `app`: one the app may use.
        public func topic(_ topic: String, app: String) throws(RegistryCommandError) {
            guard let allowed = topics[app], !allowed.contains(topic) else { return }
            throw RegistryCommandError(
                field: "topic",
                message: "\(JSONText.quoted(topic)) is not one of the APNs topics app \(JSONText.quoted(app)) "
                    + "may use (its own topic and allowed topics, each with its push-type suffixes)")
        }

        /// The fields of a register that describe the device (``DeviceProfile``).
        static let profileFields = ["timezone", "locale", "attributes"]

        /// A register's `timezone`, `locale` and `attributes`: each absent or
        /// `null` keeps the stored value, `""` (time zone, locale) or `{}`
        /// (attributes) clears it, anything else is checked — an IANA time
        /// zone of the system's tz database, a well-formed BCP 47 tag, a map
        /// of strings within ``RegistryLimits``'s attribute bounds.
        public func profile(_ fields: FieldReader, subscriptionKeys: SubscriptionKeys? = nil)
            throws(RegistryCommandError) -> DeviceProfile
        {
            var profile = DeviceProfile(subscriptionKeys: subscriptionKeys)
            profile.timezone = try fields.string("timezone")
            if let timezone = profile.timezone, !timezone.isEmpty {
                try checked("timezone") { () throws(RegistryError) in try validation.timezone(timezone, "register") }
            }
            profile.locale = try fields.string("locale")
            if let locale = profile.locale, !locale.isEmpty {
                try checked("locale") { () throws(RegistryError) in try validation.locale(locale, "register") }
            }
            if let object = try fields.object("attributes") {
                var attributes: [String: String] = [:]
                let path = fields.path("attributes")
                for (key, value) in object {
                    guard case .string(let text) = value else {
                        throw .mismatch("\(path).\(FieldReader.displayName(key))", expected: "a string", found: value)
                    }
                    attributes[key] = text
                }
                try checked("attributes") { () throws(RegistryError) in
                    try validation.attributes(attributes, "register")
                }
                profile.attributes = attributes
            }
            return profile
        }

        /// The fields naming the device: its app, provider and address, or a
        /// provider's whole target (``ProviderTargetRules/registrationTargetField``).
        var deviceFields: [String] {
            ["app", "provider", "token", "fid"] + providers.rules.compactMap(\.registrationTargetField)
        }

        var validation: RegistryValidation { RegistryValidation(limits: limits, providers: providers) }

        /// `app`: one of Herald's apps.
        public func app(_ app: String) throws(RegistryCommandError) {
            guard apps[app] == nil else { return }
            let known = apps.keys.sorted()
            let hint = Suggestions.closest(to: app, among: known).map { "did you mean \(JSONText.quoted($0))?; " } ?? ""
            throw RegistryCommandError(
                field: "app",
                message: "unknown app \(JSONText.quoted(app)) (\(hint)apps: \(known.joined(separator: ", ")))")
        }

        /// The device `object`'s `app`, `provider` and `token` or `fid` name:
        /// an app Herald has, a provider it has credentials for, a device address.
        public func device(in object: JSONObject) throws(RegistryCommandError) -> DeviceKey {
            try registeredDevice(in: object).key
        }

        /// The device `object` names, and the subscription keys its target
        /// gives when its provider's devices are given whole (Web Push's
        /// `subscription`, decoded as an event's target is).
        func registeredDevice(in object: JSONObject) throws(RegistryCommandError)
            -> (key: DeviceKey, keys: SubscriptionKeys?)
        {
            let fields = FieldReader(object: object, path: "")
            guard let app = try fields.string("app") else {
                throw RegistryCommandError(
                    field: "app", message: "missing; give one of \(EventError.list(apps.keys.sorted()))")
            }
            try self.app(app)
            guard let provider = try fields.provider("provider", among: self.providers) else {
                throw RegistryCommandError(
                    field: "provider", message: "missing; expected \(EventError.list(self.providers.acceptedNames))")
            }
            if let providers = apps[app], !providers.contains(provider) {
                let configured = self.providers.providers.filter(providers.contains).map(\.rawValue)
                throw RegistryCommandError(
                    field: "provider",
                    message: "app \(JSONText.quoted(app)) has no \(provider) credentials "
                        + "(it has \(configured.isEmpty ? "none" : EventError.list(configured)))")
            }
            let rules = self.providers.rules(for: provider)
            for field in self.providers.rules.compactMap(\.registrationTargetField)
            where field != rules?.registrationTargetField && fields.value(field) != nil {
                throw RegistryCommandError(
                    field: field, message: "is not a field of \(rules?.displayName ?? provider.rawValue) devices")
            }
            if let rules, let field = rules.registrationTargetField {
                return try wholeTarget(field, of: fields, rules: rules, app: app)
            }
            let present = ["token", "fid"].filter { fields.value($0) != nil }
            guard present.count < 2 else {
                throw RegistryCommandError(
                    field: "command", message: "has both \"token\" and \"fid\"; give exactly one")
            }
            guard let field = present.first else {
                throw RegistryCommandError(
                    field: "command",
                    message: "has neither \"token\" nor \"fid\"; give the device's token (or FID on FCM)")
            }
            guard let value = try fields.string(field) else {
                throw RegistryCommandError(field: field, message: "missing")
            }
            let address: Target.Address = field == "fid" ? .fid(value) : .token(value)
            try checked(field) { () throws(RegistryError) in
                try validation.address(address, provider: provider, "device")
            }
            return (DeviceKey(app: app, provider: provider, address: address), nil)
        }

        /// A device its provider's rules decode from `field` as an event's
        /// target (Web Push: `subscription`), with what the registry keeps of it.
        private func wholeTarget(
            _ field: String, of fields: FieldReader, rules: any ProviderTargetRules, app: String
        ) throws(RegistryCommandError) -> (key: DeviceKey, keys: SubscriptionKeys?) {
            if let other = ["token", "fid"].first(where: { fields.value($0) != nil }) {
                throw RegistryCommandError(
                    field: other, message: "is not a field of \(rules.displayName) devices; give the \"\(field)\"")
            }
            guard fields.value(field) != nil else {
                throw RegistryCommandError(
                    field: field, message: "missing; a \(rules.displayName) device is given by its \"\(field)\"")
            }
            let target: Target
            do {
                target = try rules.decodeTarget(field: field, of: fields)
            } catch {
                throw RegistryCommandError(field: error.error.field, message: error.error.message)
            }
            try checked("\(field).\(target.address.field)") { () throws(RegistryError) in
                try validation.address(target.address, provider: rules.provider, "device")
            }
            let values = rules.registeredDeviceValues(of: target)
            let keys = values[RegisteredDeviceField.p256dh].flatMap { p256dh in
                values[RegisteredDeviceField.auth].map { SubscriptionKeys(p256dh: p256dh, auth: $0) }
            }
            return (DeviceKey(app: app, provider: rules.provider, address: target.address), keys)
        }

        /// `names` as the channels they name (each in NFC and checked,
        /// ``ChannelName``; at most a device's worth), in their order without
        /// repeats (compared byte for byte after NFC, as the store does).
        public func channels(_ names: [String], _ operation: String) throws(RegistryCommandError) -> [String] {
            guard !names.isEmpty else {
                throw RegistryCommandError(field: "channels", message: "is empty; give at least one channel")
            }
            var seen = Set<[UInt8]>()
            var distinct: [String] = []
            for (index, given) in names.enumerated() {
                let name = try channel(given, field: "channels[\(index)]", operation)
                if seen.insert(Array(name.utf8)).inserted { distinct.append(name) }
            }
            try checked("channels") { () throws(RegistryError) in try validation.channels(distinct, operation) }
            return distinct
        }

        /// One channel name as the channel it names (NFC, checked), as `field` (`channel`) reports it.
        public func channel(_ name: String, field: String) throws(RegistryCommandError) -> String {
            try channel(name, field: field, "channel")
        }

        private func channel(_ name: String, field: String, _ operation: String) throws(RegistryCommandError) -> String
        {
            let canonical: String
            switch ChannelName.canonical(name) {
            case .success(let normalized): canonical = normalized
            case .failure(let problem): throw RegistryCommandError(field: field, message: "channel \(problem.message)")
            }
            try checked(field) { () throws(RegistryError) in try validation.channel(canonical, operation) }
            return canonical
        }

        /// `body`, a store's argument check, with its error reported as `field`'s.
        func checked(_ field: String, _ body: () throws(RegistryError) -> Void) throws(RegistryCommandError) {
            do {
                try body()
            } catch {
                throw RegistryCommandError(field: field, message: error.message)
            }
        }
    }
}

extension RegistryChange {
    /// The change's name in results: `created`, `updated`, `unchanged`, `removed`, `not_found`.
    public var name: String {
        switch self {
        case .created: "created"
        case .updated: "updated"
        case .unchanged: "unchanged"
        case .removed: "removed"
        case .notFound: "not_found"
        }
    }

    /// What registering on several channels did as a whole: `created` when
    /// any membership was created, else `updated` when any changed, else `unchanged`.
    public static func summary(of changes: some Sequence<RegistryChange>) -> RegistryChange {
        var summary = RegistryChange.unchanged
        for change in changes {
            if change == .created { return .created }
            if change == .updated { summary = .updated }
        }
        return summary
    }
}
